// system_configuration applied to the device: the journald limits and automatic OS upgrades.
// Each part touches the system only when its files would change; with
// advanced_settings.disable_system_configuration nothing is touched at all. (forward_system_logs
// is not a file but a running journalctl: see journal-forwarder.ts.)
import type { Logger, SystemConfiguration } from "../../../../core/index.js";
import type { CommandRunner } from "../../system/index.js";
import { applyJournaldLimits } from "./journald.js";
import { applyAutoUpgrades } from "./unattended-upgrades.js";

export interface ApplySystemOptions {
  /** Root prefix of every file written; "/" on a device. */
  root: string;
  run: CommandRunner;
  logger?: Logger;
  /** advanced_settings.disable_system_configuration. */
  disabled?: boolean;
}

export interface SystemChanges {
  /** The journald drop-in was written or removed (and journald restarted). */
  journald: boolean;
  /** Apt files written. */
  upgrades: string[];
  /** unattended-upgrades was installed. */
  installedUnattendedUpgrades: boolean;
  /** What could not be done, in words; the rest was applied. */
  problems: string[];
}

export async function applySystemConfiguration(config: SystemConfiguration, options: ApplySystemOptions): Promise<SystemChanges> {
  const changes: SystemChanges = { journald: false, upgrades: [], installedUnattendedUpgrades: false, problems: [] };
  if (options.disabled) {
    options.logger?.debug("system configuration is disabled; the system is left as it is");
    return changes;
  }
  const logger = options.logger;
  try {
    changes.journald = await applyJournaldLimits(
      {
        systemMaxUseMb: config.logging_journald_system_max_use_megabytes,
        runtimeMaxUseMb: config.logging_journald_runtime_max_use_megabytes,
      },
      { root: options.root, run: options.run, logger },
    );
  } catch (error) {
    changes.problems.push(`journald: ${(error as Error).message}`);
  }
  try {
    const upgrades = await applyAutoUpgrades(config.os_auto_upgrade_type, { root: options.root, run: options.run, logger });
    changes.upgrades = upgrades.written;
    changes.installedUnattendedUpgrades = upgrades.installed;
    if (upgrades.installError) changes.problems.push(`unattended-upgrades: ${upgrades.installError}`);
  } catch (error) {
    changes.problems.push(`unattended-upgrades: ${(error as Error).message}`);
  }
  for (const problem of changes.problems) logger?.warn(`system configuration: ${problem}`);
  return changes;
}
