// The module's side of viam.module.v1.ModuleService: Ready with the handler map, ValidateConfig,
// AddResource, ReconfigureResource and RemoveResource over the resources the module holds.
import type { JsonObject } from "@bufbuild/protobuf";
import { Code, ConnectError, type ServiceImpl } from "@connectrpc/connect";
import {
  errorMessage,
  formatResourceName,
  parseResourceName,
  type Resource,
  type ResourceConfig,
  type ResourceName,
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
  if (!wire) throw new ConnectError("config: missing", Code.InvalidArgument);
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

export function createModuleServiceImpl(state: ModuleServiceState): Partial<ServiceImpl<typeof ModuleService>> {
  const find = (config: ResourceConfig) => {
    const model = state.models.find((m) => m.api === config.api && m.model === config.model);
    if (!model) throw new ConnectError(`this module has no model ${config.model} for API ${config.api}`, Code.InvalidArgument);
    return model;
  };
  const nameOf = (config: ResourceConfig): ResourceName => {
    const parsed = parseResourceName(`${config.api}/${config.name}`);
    if (!parsed.ok) throw new ConnectError(`config.name: ${parsed.error}`, Code.InvalidArgument);
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
  const failed = (what: string, thrown: unknown) =>
    thrown instanceof ConnectError ? thrown : new ConnectError(`${what}: ${errorMessage(thrown)}`, Code.Internal);

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
        throw new ConnectError(errorMessage(thrown), Code.InvalidArgument);
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
      if (!resource) throw new ConnectError(`${full} is not in this module`, Code.NotFound);
      if (!model.reconfigure) throw new ConnectError(`model ${config.model} does not reconfigure in place`, Code.Unimplemented);
      try {
        await model.reconfigure(resource, ctx);
      } catch (thrown) {
        throw failed(`reconfiguring ${full} failed`, thrown);
      }
      return {};
    },
    async removeResource(request) {
      const resource = state.resources.get(request.name);
      if (!resource) throw new ConnectError(`${request.name} is not in this module`, Code.NotFound);
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
