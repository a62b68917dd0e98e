// svc-server's side of viam.module.v1.ModuleService for one running module: asks Ready until the
// module says it is, reads its handler map, and carries AddResource, ReconfigureResource,
// RemoveResource and ValidateConfig with the configuration in the wire's ComponentConfig shape.
import type { JsonObject, MessageInitShape } from "@bufbuild/protobuf";
import { ConnectError, createClient } from "@connectrpc/connect";
import { Code, sleep, type Clock, type ResourceConfig } from "../../../core/index.js";
import type { ComponentConfigSchema } from "../../../proto/gen/app/v1/robot_pb.js";
import { ModuleService, type HandlerMap } from "../../../proto/gen/module/v1/module_pb.js";
import { createUnixSocketTransport, type UnixSocketTransport } from "../remote/unix-socket-transport.js";

/** An API the module serves and the models it has for it. */
export interface ModuleHandler {
  api: string;
  models: string[];
}

export interface ModuleValidation {
  requiredDependencies: string[];
  optionalDependencies: string[];
}

export interface ModuleClient {
  readonly transport: UnixSocketTransport;
  /** Asks Ready until the module is ready or `timeoutMs` passes; resolves with its handlers. */
  waitUntilReady(parentAddress: string, timeoutMs: number, stillWanted: () => boolean): Promise<ModuleHandler[]>;
  validate(config: ResourceConfig, timeoutMs: number): Promise<ModuleValidation>;
  add(config: ResourceConfig, dependencies: string[], timeoutMs: number): Promise<void>;
  /** False when the module does not implement ReconfigureResource. */
  reconfigure(config: ResourceConfig, dependencies: string[], timeoutMs: number): Promise<boolean>;
  remove(fullName: string, timeoutMs: number): Promise<void>;
  close(): void;
}

// One Ready call may take this long; the start-up timeout bounds the whole wait.
const READY_CALL_MS = 5_000;
const READY_POLL_MS = 100;

export function wireComponentConfig(config: ResourceConfig): MessageInitShape<typeof ComponentConfigSchema> {
  const [namespace = "", type = ""] = config.api.split(":");
  return {
    name: config.name,
    namespace,
    type,
    api: config.api,
    model: config.model,
    attributes: config.attributes as JsonObject,
    dependsOn: config.depends_on,
    logConfiguration: config.log_configuration ? { level: config.log_configuration.level } : undefined,
  };
}

function handlersOf(map: HandlerMap | undefined): ModuleHandler[] {
  const handlers: ModuleHandler[] = [];
  for (const h of map?.handlers ?? []) {
    const s = h.subtype?.subtype;
    if (!s) continue;
    handlers.push({ api: `${s.namespace}:${s.type}:${s.subtype}`, models: h.models.slice() });
  }
  return handlers;
}

export function createModuleClient(socketPath: string, clock: Clock): ModuleClient {
  const transport = createUnixSocketTransport(socketPath);
  const client = createClient(ModuleService, transport);
  return {
    transport,
    async waitUntilReady(parentAddress, timeoutMs, stillWanted) {
      const deadline = clock.now() + timeoutMs;
      let last = "it never answered";
      let saidNotReady = false;
      while (stillWanted()) {
        const left = deadline - clock.now();
        if (left <= 0) break;
        try {
          const answer = await client.ready({ parentAddress, rawParentAddress: parentAddress }, { timeoutMs: Math.min(left, READY_CALL_MS) });
          if (answer.ready) return handlersOf(answer.handlermap);
          saidNotReady = true;
        } catch (thrown) {
          last = `Ready failed: ${ConnectError.from(thrown).rawMessage}`;
        }
        await sleep(clock, Math.min(READY_POLL_MS, Math.max(0, deadline - clock.now())));
      }
      if (!stillWanted()) throw new Error("stopped before it was ready");
      throw new Error(`not ready within ${Math.round(timeoutMs / 1000)} s (startup_timeout); ${saidNotReady ? "it answered not ready" : last}`);
    },
    async validate(config, timeoutMs) {
      try {
        const answer = await client.validateConfig({ config: wireComponentConfig(config) }, { timeoutMs });
        return { requiredDependencies: answer.dependencies.slice(), optionalDependencies: answer.optionalDependencies.slice() };
      } catch (thrown) {
        // A module without a validator has nothing to add.
        if (ConnectError.from(thrown).code === Code.Unimplemented) return { requiredDependencies: [], optionalDependencies: [] };
        throw thrown;
      }
    },
    async add(config, dependencies, timeoutMs) {
      await client.addResource({ config: wireComponentConfig(config), dependencies }, { timeoutMs });
    },
    async reconfigure(config, dependencies, timeoutMs) {
      try {
        await client.reconfigureResource({ config: wireComponentConfig(config), dependencies }, { timeoutMs });
        return true;
      } catch (thrown) {
        if (ConnectError.from(thrown).code === Code.Unimplemented) return false;
        throw thrown;
      }
    },
    async remove(fullName, timeoutMs) {
      await client.removeResource({ name: fullName }, { timeoutMs });
    },
    close: () => transport.close(),
  };
}
