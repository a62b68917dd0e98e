// Running svc-agent: --install, or the agent itself until a signal stops it. One agent per device
// (the lock); an agent that installed a new version of itself restarts into it: under systemd
// by exiting (the unit restarts it, and its fallback script guards the new version), otherwise by
// starting the new executable before it exits.
import { spawn } from "node:child_process";
import { join } from "node:path";
import { createNodeClock } from "../logging/index.js";
import type { ParsedFlags } from "../cli/flags.js";
import { SVC_VERSION } from "../version.js";
import { startAgent } from "./agent.js";
import { agentClocksFromEnv } from "./agent-clock.js";
import { createAgentLogging } from "./agent-logging.js";
import { agentPaths } from "./agent-paths.js";
import { acquireAgentLock, AgentLockError } from "./lock-file.js";
import { createSystemCommandRunner, installAgentService, notRunMessage } from "./system/index.js";

export async function runAgent(flags: ParsedFlags, env: Record<string, string | undefined>): Promise<number> {
  const say = (line: string) => process.stderr.write(`svc-agent: ${line}\n`);
  const { values } = flags;
  const paths = agentPaths(env.SVC_AGENT_ROOT || "/");

  if (values.install) {
    const notRun: string[] = [];
    const run = createSystemCommandRunner({
      root: paths.root,
      notRun: (typed) => {
        notRun.push(typed);
        say(notRunMessage(paths.root, typed));
      },
    });
    try {
      const result = await installAgentService({ run, root: paths.root });
      const ran = result.commands.filter((typed) => !notRun.includes(typed));
      say(`installed ${result.unitPath}${ran.length ? `; ran ${ran.join(", ")}` : ""}; logs: journalctl -u svc-agent`);
      return 0;
    } catch (error) {
      say(`--install: ${(error as Error).message}`);
      return 1;
    }
  }
  if (process.getuid?.() !== 0 && !values["dev-mode"]) {
    say("must run as root (or with --dev-mode / SVC_AGENT_DEVMODE=1)");
    return 1;
  }
  let clocks;
  try {
    clocks = agentClocksFromEnv(env);
  } catch (error) {
    say((error as Error).message);
    return 2;
  }

  let lock;
  try {
    lock = acquireAgentLock(paths.lockFile);
  } catch (error) {
    say(error instanceof AgentLockError ? error.message : `cannot take ${paths.lockFile}: ${(error as Error).message}`);
    return 1;
  }
  const logging = createAgentLogging({ stateDir: paths.stateDir, debug: values.debug === true, output: { clock: createNodeClock() } });
  const log = logging.logger;
  log.info(`svc-agent ${SVC_VERSION} starting`, { root: paths.root, time_scale: clocks.agent.factor });
  log.debug("options", { config: String(values.config), defaults: String(values.defaults), lock: paths.lockFile });

  // Only flags typed on the command line form the flag layer; their environment twins are the
  // environment layer, read by the settings themselves.
  const typed = (name: string) => flags.given.has(name) && !(name === "debug" ? env.SVC_AGENT_DEBUG : env.SVC_AGENT_WAIT_FOR_UPDATE);
  let agent;
  try {
    agent = await startAgent({
      paths,
      clocks,
      configFile: String(values.config),
      defaultsFile: String(values.defaults),
      flagLayer: {
        ...(typed("debug") ? { debug: values.debug === true } : {}),
        ...(typed("wait") ? { wait: values.wait === true } : {}),
      },
      env,
      logger: log,
      systemLogSink: logging.queue,
      logQueue: logging.queue,
      setDebug: (debug) => logging.setDebug(debug || values.debug === true),
      run: createSystemCommandRunner({ root: paths.root, notRun: (typed) => log.info(notRunMessage(paths.root, typed)) }),
      version: SVC_VERSION,
    });
  } catch (error) {
    log.error(`cannot start: ${(error as Error).message}`);
    logging.close();
    lock.release();
    return 1;
  }

  const stopOnSignal = () => void agent.stop();
  process.once("SIGTERM", stopOnSignal);
  process.once("SIGINT", stopOnSignal);
  const how = await agent.finished;
  if (how === "restart") await agent.stop();
  log.info(how === "restart" ? "svc-agent restarting into its new version" : "svc-agent stopped");
  logging.close();
  lock.release();
  if (how === "restart" && !env.INVOCATION_ID) restartInto(paths.currentExecutable("agent"));
  return 0;
}

// Outside systemd nobody restarts the agent: start the new version, detached, with the same
// arguments and environment, before this one exits (it waits for the lock we just released).
function restartInto(executable: string): void {
  const child = spawn(executable, process.argv.slice(2), { detached: true, stdio: "inherit", cwd: join(executable, "..") });
  child.unref();
}
