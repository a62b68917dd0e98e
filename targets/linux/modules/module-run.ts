// One run of a module, from start to exit: its executable found (a registry package downloaded
// first), started, its socket and Ready waited for within `startup_timeout_ms`, the entries of its
// models validated, its models registered; then it serves until the process exits. Returns why
// the run ended.
import { isAbsolute, resolve } from "node:path";
import { errorMessage } from "../../../core/index.js";
import { createModuleClient } from "./module-client.js";
import { registerModels, validateEntries } from "./module-models.js";
import { resolveModulePackage } from "./module-package.js";
import { describeExit, startModuleProcess, type ModuleProcess } from "./module-process.js";
import { setModuleState, type SupervisedModule } from "./supervised-module.js";

async function executable(m: SupervisedModule): Promise<{ path: string; root: string }> {
  const { config } = m;
  if (config.type === "registry") {
    const found = await resolveModulePackage(config, m.options.packages);
    return { path: found.executable, root: found.root };
  }
  const path = isAbsolute(config.executable_path) ? config.executable_path : resolve(m.options.baseDir, config.executable_path);
  return { path, root: resolve(path, "..") };
}

function startProcess(m: SupervisedModule, executablePath: string, root: string, socketPath: string): Promise<ModuleProcess> {
  const { config, options, log } = m;
  return startModuleProcess({
    executable: executablePath,
    setting: config.type === "registry" ? `the entrypoint of ${config.module_id}` : "executable_path",
    recordGroup: options.sockets.recordGroup,
    socketPath,
    logLevel: options.logEngine.moduleLogLevel(m.name),
    root,
    env: config.env,
    clock: m.clock,
    loggers: {
      // A line from one of the module's resources goes to `<module>.<resource>`.
      log: (lvl, message, fields) => {
        const { logger: sub, ...rest } = fields ?? {};
        (typeof sub === "string" && sub !== "" ? log.child(sub) : log).log(lvl, message, rest);
      },
      stderr: (line) => m.stderrLog.error(line),
    },
  });
}

export async function runModuleOnce(m: SupervisedModule): Promise<string> {
  const { config, options, log, quoted, clock } = m;
  const started = clock.now();
  const found = await executable(m);
  const socketPath = options.sockets.forModule(m.name);
  const p = await startProcess(m, found.path, found.root, socketPath);
  m.proc = p;
  m.spawnProblem = undefined;
  // Stopped while its executable was being looked at: stop() found no process to end.
  if (m.stopping) {
    await p.stop(options.stopGraceMs);
    return "stopped";
  }
  log.info(`module ${quoted} started`, { pid: p.pid, executable: found.path });
  const client = createModuleClient(socketPath, clock);
  try {
    await p.waitForSocket(config.startup_timeout_ms);
    const left = Math.max(0, config.startup_timeout_ms - (clock.now() - started));
    const exitedEarly = p.exited.then((exit) => Promise.reject(new Error(`${describeExit(exit)} before it was ready`)));
    exitedEarly.catch(() => {});
    m.handlers = await Promise.race([client.waitUntilReady(options.sockets.parent, left, () => !m.stopping && !p.hasExited()), exitedEarly]);
    await validateEntries(m, client, options.resources());
    if (m.stopping) return "stopped";
    m.ready = client;
    registerModels(m, client);
    m.backoff.started(clock.now());
    setModuleState(m, "READY");
    log.info(`module ${quoted} is ready`, { pid: p.pid, models: m.handlers.flatMap((h) => h.models) });
    const exit = await p.exited;
    return describeExit(exit);
  } catch (thrown) {
    // Start-up failed with the process still there (not ready in time, a broken answer): end it.
    if (!p.hasExited()) await p.stop(options.stopGraceMs);
    return errorMessage(thrown);
  } finally {
    if (m.ready === client && !m.stopping) m.ready = undefined;
    if (m.stopping) void p.exited.then(() => client.close());
    else client.close();
  }
}
