// The module's side of viam.module.v1.ModuleService: Ready with the handler map, ValidateConfig,
// AddResource, ReconfigureResource and RemoveResource over the resources the module holds.
// Its errors are SvcErrors, sent as every handler's are (toConnectImpl); what a model's own code
// throws while building, reconfiguring or closing is INTERNAL, naming the resource.
import type { JsonObject } from "@bufbuild/protobuf";
import { ConnectError } from "@connectrpc/connect";
import {
  Code,
  errorMessage,
  formatResourceName,
  parseResourceName,
  SvcError,
  type Resource,
  type ResourceConfig,
  type ResourceName,
  type ServiceHandlers,
} from "../../../core/index.js";
import type { ComponentConfig } from "../../../proto/gen/app/v1/robot_pb.js";
import type { ModuleService } from "../../../proto/gen/module/v1/module_pb.js";
import { componentServiceApis } from "../server/rpc/index.js";
import type { ModuleLogger } from "./module-logger.js";
import type { ModuleBuildContext, ModuleDependencies, ModuleModel } from "./module-model.js";

export interface ModuleServiceState {
  models: readonly ModuleModel[];
  ready(): boolean | Promise<boolean>;
  /** The resources the module holds, by full name. */
  resources: Map<string, Resource>;
  logger: ModuleLogger;
  /** Called with the parent's socket path on the first Ready. */
  parentAddress(address: string): void;
  /** A resource in svc-server, reached through the parent socket. */
  parentResource(name: ResourceName): Resource;
}

export function configFromWire(wire: ComponentConfig | undefined): ResourceConfig {
  if (!wire) throw new SvcError(Code.InvalidArgument, "config: missing");
  const api = wire.api || `${wire.namespace}:${wire.type}`;
  const config: ResourceConfig = {
    name: wire.name,
    api,
    model: wire.model,
    attributes: (wire.attributes ?? {}) as JsonObject,
    depends_on: wire.dependsOn.slice(),
  };
  if (wire.logConfiguration?.level) config.log_configuration = { level: wire.logConfiguration.level.toLowerCase() as "debug" };
  return config;
}

export function createModuleServiceHandlers(state: ModuleServiceState): Partial<ServiceHandlers<typeof ModuleService>> {
  const find = (config: ResourceConfig) => {
    const model = state.models.find((m) => m.api === config.api && m.model === config.model);
    if (!model) throw new SvcError(Code.InvalidArgument, `this module has no model ${config.model} for API ${config.api}`);
    return model;
  };
  const nameOf = (config: ResourceConfig): ResourceName => {
    const parsed = parseResourceName(`${config.api}/${config.name}`);
    if (!parsed.ok) throw new SvcError(Code.InvalidArgument, `config.name: ${parsed.error}`);
    return parsed.value;
  };
  const context = (config: ResourceConfig, dependencyNames: string[]): ModuleBuildContext => {
    const deps = new Map<string, Resource>();
    for (const full of dependencyNames) {
      const parsed = parseResourceName(full);
      if (parsed.ok) deps.set(full, state.parentResource(parsed.value));
    }
    const dependencies: ModuleDependencies = {
      get<R extends Resource>(name: string) {
        const exact = deps.get(name);
        if (exact) return exact as R;
        const bySimple = Array.from(deps.entries()).filter(([full]) => full.slice(full.indexOf("/") + 1) === name);
        return (bySimple.length === 1 ? bySimple[0]![1] : undefined) as R | undefined;
      },
      names: () => Array.from(deps.keys()),
    };
    return { name: nameOf(config), config, dependencies, logger: state.logger.child(config.name) };
  };
  // A ConnectError a model let through (from a call of its own) is already a status for the wire.
  const failed = (what: string, thrown: unknown) =>
    thrown instanceof ConnectError ? thrown : new SvcError(Code.Internal, `${what}: ${errorMessage(thrown)}`, thrown);

  return {
    async ready(request) {
      const parent = request.rawParentAddress || request.parentAddress;
      if (parent) state.parentAddress(parent.replace(/^unix:\/\//, ""));
      const isReady = await state.ready();
      const byApi = new Map<string, string[]>();
      for (const m of state.models) byApi.set(m.api, [...(byApi.get(m.api) ?? []), m.model]);
      const handlers = Array.from(byApi, ([api, models]) => {
        const [namespace = "", type = "", subtype = ""] = api.split(":");
        const protoService = componentServiceApis.find((s) => s.api === api)?.service ?? "";
        return { subtype: { subtype: { namespace, type, subtype, name: "" }, protoService }, models };
      });
      return { ready: isReady, handlermap: { handlers } };
    },
    async validateConfig(request) {
      const config = configFromWire(request.config);
      const model = find(config);
      if (!model.validate) return { dependencies: [], optionalDependencies: [] };
      try {
        const found = (await model.validate(config)) ?? {};
        return { dependencies: found.dependencies ?? [], optionalDependencies: found.optionalDependencies ?? [] };
      } catch (thrown) {
        throw new SvcError(Code.InvalidArgument, errorMessage(thrown), thrown);
      }
    },
    async addResource(request) {
      const config = configFromWire(request.config);
      const model = find(config);
      const ctx = context(config, request.dependencies);
      const full = formatResourceName(ctx.name);
      const earlier = state.resources.get(full);
      if (earlier) {
        state.resources.delete(full);
        await earlier.close().catch((thrown) => state.logger.warn(`closing the earlier ${full} failed: ${errorMessage(thrown)}`));
      }
      try {
        state.resources.set(full, await model.build(ctx));
      } catch (thrown) {
        throw failed(`building ${full} failed`, thrown);
      }
      state.logger.debug(`added ${full}`);
      return {};
    },
    async reconfigureResource(request) {
      const config = configFromWire(request.config);
      const model = find(config);
      const ctx = context(config, request.dependencies);
      const full = formatResourceName(ctx.name);
      const resource = state.resources.get(full);
      if (!resource) throw new SvcError(Code.NotFound, `${full} is not in this module`);
      if (!model.reconfigure) throw new SvcError(Code.Unimplemented, `model ${config.model} does not reconfigure in place`);
      try {
        await model.reconfigure(resource, ctx);
      } catch (thrown) {
        throw failed(`reconfiguring ${full} failed`, thrown);
      }
      return {};
    },
    async removeResource(request) {
      const resource = state.resources.get(request.name);
      if (!resource) throw new SvcError(Code.NotFound, `${request.name} is not in this module`);
      state.resources.delete(request.name);
      try {
        await resource.close();
      } catch (thrown) {
        throw failed(`closing ${request.name} failed`, thrown);
      }
      return {};
    },
  };
}
