// The agent's system_configuration job: journald limits and automatic OS upgrades applied on each
// configuration, and the journal forwarder kept in line with `forward_system_logs` (started,
// restarted with a new filter, or stopped). `disable_system_configuration` turns all of it off.
import type { AgentConfig, Clock, LogSink, Logger } from "../../../../core/index.js";
import type { CommandRunner } from "../../system/index.js";
import { createJournalForwarder, type JournalForwarder } from "./journal-forwarder.js";
import { applySystemConfiguration } from "./system-configuration.js";

export interface AgentSystemSettingsOptions {
  /** Root prefix for system files. */
  root: string;
  run: CommandRunner;
  /** Where forwarded journal entries go (the agent's log queue). */
  sink: LogSink;
  /** Real time, for the forwarder. */
  clock: Clock;
  /** The agent's logger; the work itself logs under its "system" child. */
  logger: Logger;
}

export interface AgentSystemSettings {
  /** Applies the configuration's system settings; problems are logged, never thrown. */
  apply(agent: AgentConfig): Promise<void>;
  stop(): Promise<void>;
}

export function createAgentSystemSettings(options: AgentSystemSettingsOptions): AgentSystemSettings {
  const log = options.logger;
  const systemLog = log.child("system");
  let forwarder: JournalForwarder | undefined;
  // The filter the running forwarder follows, as JSON; "" when none runs.
  let forwarding = "";

  async function followForwarding(agent: AgentConfig): Promise<void> {
    const filter = agent.system_configuration.forward_system_logs;
    const wanted = agent.advanced_settings.disable_system_configuration || (!filter.all && filter.include.length === 0) ? "" : JSON.stringify(filter);
    if (wanted === forwarding) return;
    await forwarder?.stop();
    forwarder = undefined;
    forwarding = wanted;
    if (wanted) forwarder = createJournalForwarder({ filter, sink: options.sink, clock: options.clock, logger: systemLog });
  }

  return {
    async apply(agent) {
      try {
        const changes = await applySystemConfiguration(agent.system_configuration, {
          root: options.root,
          run: options.run,
          logger: systemLog,
          disabled: agent.advanced_settings.disable_system_configuration,
        });
        for (const problem of changes.problems) log.warn(`system configuration: ${problem}`);
        await followForwarding(agent);
      } catch (error) {
        log.error(`system configuration: ${(error as Error).message}`);
      }
    },
    async stop() {
      await forwarder?.stop();
      forwarder = undefined;
    },
  };
}
