// Runs a module: reads what svc-server passed (socket path, log level), serves ModuleService and
// the component APIs of the resources it builds on the socket, reaches their dependencies in
// svc-server through the parent socket, follows the log level svc-server sends on its parent
// pipe, and exits cleanly on SIGTERM or when svc-server is gone.
import { createResourceLookup, errorMessage, type Resource, type ResourceName } from "../../../core/index.js";
import { ModuleService } from "../../../proto/gen/module/v1/module_pb.js";
import { UsageError } from "../cli/flags.js";
import { createRemoteResource, createUnixSocketTransport, listenOnUnixSocket, type UnixSocketTransport } from "../remote/index.js";
import { registerComponentServices, toConnectImpl } from "../server/rpc/index.js";
import { parseModuleArgs } from "./module-args.js";
import { createModuleLogger, type ModuleLogger } from "./module-logger.js";
import type { ModuleModel } from "./module-model.js";
import { createModuleServiceHandlers } from "./module-service.js";
import { watchParent } from "./parent-watch.js";

export interface ServeModuleOptions {
  models: ModuleModel[];
  /** Answers Ready; a module still loading says false and is asked again. Default: ready. */
  ready?: () => boolean | Promise<boolean>;
  /** Defaults to process.argv.slice(2) and process.env. */
  argv?: readonly string[];
  env?: Record<string, string | undefined>;
  /** Exits the process once closed by a signal or by svc-server going away. Default true. */
  exitOnClose?: boolean;
}

export interface RunningModule {
  readonly logger: ModuleLogger;
  readonly socketPath: string;
  /** Closes every resource and stops serving. */
  close(): Promise<void>;
}

export async function serveModule(options: ServeModuleOptions): Promise<RunningModule> {
  let args;
  try {
    args = parseModuleArgs(options.argv ?? process.argv.slice(2), options.env ?? process.env);
  } catch (thrown) {
    if (!(thrown instanceof UsageError)) throw thrown;
    process.stderr.write(`${thrown.message}\n`);
    process.exit(2);
  }
  const logger = createModuleLogger(args.logLevel);
  const resources = new Map<string, Resource>();
  let parent: UnixSocketTransport | undefined;
  let parentPath: string | undefined;
  const parentTransport = () => {
    if (!parentPath) throw new Error("svc-server has not said where its parent socket is");
    return (parent ??= createUnixSocketTransport(parentPath));
  };
  const moduleService = createModuleServiceHandlers({
    models: options.models,
    ready: options.ready ?? (() => true),
    resources,
    logger,
    parentAddress(address) {
      if (address !== parentPath) {
        parent?.close();
        parent = undefined;
        parentPath = address;
      }
    },
    parentResource: (name: ResourceName) => createRemoteResource(name, parentTransport()),
  });
  const lookup = createResourceLookup({
    resource: (full) => resources.get(full),
    resourceStatus: (full) => (resources.has(full) ? { state: "READY" } : undefined),
  });
  const server = await listenOnUnixSocket(args.socketPath, (router) => {
    router.service(ModuleService, toConnectImpl(ModuleService, moduleService));
    registerComponentServices(router, lookup);
  });

  let closing: Promise<void> | undefined;
  const close = () =>
    (closing ??= (async () => {
      stopWatching();
      await server.close();
      for (const [name, resource] of resources) {
        await resource.close().catch((thrown) => logger.warn(`closing ${name} failed: ${errorMessage(thrown)}`));
      }
      resources.clear();
      parent?.close();
    })());
  const exitAfterClose = (why: string) => {
    logger.info(`module stopping: ${why}`);
    void close().finally(() => {
      if (options.exitOnClose !== false) process.exit(0);
    });
  };
  const stopWatching = watchParent(args.parentFd, {
    gone: exitAfterClose,
    logLevel(level) {
      logger.setLevel(level);
      logger.debug("log level changed", { level });
    },
  });
  process.once("SIGTERM", () => exitAfterClose("SIGTERM"));
  process.once("SIGINT", () => exitAfterClose("SIGINT"));
  logger.debug("module serving", { socket: args.socketPath, models: options.models.map((m) => m.model) });
  return { logger, socketPath: args.socketPath, close };
}
