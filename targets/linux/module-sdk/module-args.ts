// What svc-server hands a module process: its socket path as the first argument, its log level
// as `--log-level=<level>`, and SVC_MODULE_* variables.
import type { LogLevel } from "../../../core/index.js";
import { UsageError } from "../cli/flags.js";

export interface ModuleArgs {
  socketPath: string;
  logLevel: LogLevel;
  /** The module's folder (SVC_MODULE_ROOT), or the working directory. */
  root: string;
  /** The fd that closes when svc-server is gone (SVC_MODULE_PARENT_FD), when given. */
  parentFd?: number;
}

const levels: readonly string[] = ["debug", "info", "warn", "error"];

export function parseModuleArgs(argv: readonly string[], env: Record<string, string | undefined>): ModuleArgs {
  let socketPath: string | undefined;
  let logLevel: LogLevel = "info";
  for (const arg of argv) {
    if (arg.startsWith("--log-level=")) {
      const level = arg.slice("--log-level=".length).toLowerCase();
      if (!levels.includes(level)) throw new UsageError(`--log-level: must be one of ${levels.join(", ")} (found ${JSON.stringify(level)})`);
      logLevel = level as LogLevel;
    } else if (!arg.startsWith("-") && socketPath === undefined) {
      socketPath = arg;
    } else {
      throw new UsageError(`unexpected argument ${JSON.stringify(arg)}`);
    }
  }
  socketPath ??= env.SVC_MODULE_ADDRESS;
  if (!socketPath) throw new UsageError("usage: <module> <socket path> [--log-level=debug|info|warn|error] (svc-server starts modules this way)");
  const fd = env.SVC_MODULE_PARENT_FD ? Number(env.SVC_MODULE_PARENT_FD) : undefined;
  const args: ModuleArgs = { socketPath, logLevel, root: env.SVC_MODULE_ROOT || process.cwd() };
  if (fd !== undefined && Number.isInteger(fd) && fd > 2) args.parentFd = fd;
  return args;
}
