// The machine on Linux: the core's pipeline (core/machine) with what only Linux has: the model
// registry with the Linux boards (fake boards on simulated ones, the Raspberry Pi and generic
// Linux boards on the real ones), modules as processes, remotes joined over the network (their
// statuses listed with the modules'), the -untrusted-env screen, and configuration revisions as
// SHA-256. It serves nothing itself; the API server follows it.
import { createHash } from "node:crypto";
import {
  createMachine,
  createModelRegistry,
  type Clock,
  type ConfigIssue,
  type ConfigScreen,
  type LogEngine,
  type Machine,
  type MachineConfig,
} from "../../../core/index.js";
import { createModuleManager, type ModuleManagerOptions } from "../modules/index.js";
import { createRemoteParts, followConfigRemotes, type CloudDialer, type RemoteParts } from "../remote-parts/index.js";
import { registerLinuxModels } from "./linux-models.js";

export interface LinuxMachineOptions {
  logEngine: LogEngine;
  clock: Clock;
  /** -reveal-sensitive-config-diffs */
  revealSecrets?: boolean;
  /** Leaves out entries this machine will not run (e.g. -untrusted-env), with an issue for each. */
  screen?: (config: MachineConfig, written: unknown) => { config: MachineConfig; issues: ConfigIssue[] };
  buildTimeoutMs?: number;
  /** Runs the configuration's modules; without it, module entries are not started. */
  modules?: Omit<ModuleManagerOptions, "registry" | "logEngine" | "settle">;
  /** Dials remotes over WebRTC through svc-cloud while the machine follows svc-cloud. */
  remotesThroughCloud?: () => CloudDialer | undefined;
}

/** The machine and its remote parts. */
export interface LinuxMachine extends Machine {
  readonly remotes: RemoteParts;
}

export function createLinuxMachine(options: LinuxMachineOptions): LinuxMachine {
  const { logEngine, modules } = options;
  const registry = createModelRegistry();
  // The motion service reads the frame system of the configuration in force, once it runs.
  let machine: Machine | undefined;
  registerLinuxModels(registry, { components: () => machine?.current()?.config.components });
  machine = createMachine({
    registry,
    logEngine,
    clock: options.clock,
    revisionOf: sha256Revision,
    screen: options.screen && leavingOut(options.screen),
    revealSecrets: options.revealSecrets,
    buildTimeoutMs: options.buildTimeoutMs,
    modules: modules && ((settle) => createModuleManager({ ...modules, registry, logEngine, settle })),
  });
  return withRemotes(machine, options);
}

/** The machine with its remotes: they follow its configuration in force, and are let go once its resources are closed. */
function withRemotes(machine: Machine, options: LinuxMachineOptions): LinuxMachine {
  const { clock, logEngine, remotesThroughCloud: throughCloud } = options;
  const remotes = createRemoteParts({ engine: machine.engine, registry: machine.registry, clock, logger: logEngine.logger("svc.remotes"), throughCloud });
  machine.onConfig(followConfigRemotes(remotes));
  return {
    ...machine,
    remotes,
    moduleStatuses: () => [...machine.moduleStatuses(), ...remotes.statuses()],
    async close() {
      const report = await machine.close();
      remotes.close();
      return report;
    },
  };
}

/** A screen that leaves entries out, its issues after the parse's own. */
function leavingOut(screen: NonNullable<LinuxMachineOptions["screen"]>): ConfigScreen {
  return (parsed, written) => {
    const screened = screen(parsed.config, written());
    return { config: screened.config, issues: [...parsed.issues, ...screened.issues] };
  };
}

function sha256Revision(text: string): string {
  return createHash("sha256").update(text).digest("hex").slice(0, 12);
}
