// system_configuration's journald limits, as the drop-in
// /etc/systemd/journald.conf.d/svc-agent.conf (SystemMaxUse, RuntimeMaxUse in MB). -1 for one
// leaves its line out (journald's own limit applies); -1 for both removes the drop-in. journald
// is restarted only when the drop-in changed.
import { join } from "node:path";
import type { Logger } from "../../../../core/index.js";
import type { CommandRunner } from "../../system/index.js";
import { removeIfPresent, writeIfChanged } from "../../system/atomic-file.js";

export const JOURNALD_DROP_IN = "/etc/systemd/journald.conf.d/svc-agent.conf";

export interface JournaldLimits {
  /** logging_journald_system_max_use_megabytes; -1: journald's own. */
  systemMaxUseMb: number;
  /** logging_journald_runtime_max_use_megabytes; -1: journald's own. */
  runtimeMaxUseMb: number;
}

/** The drop-in's text, or null when no limit is set (the drop-in goes away). */
export function journaldDropInText(limits: JournaldLimits): string | null {
  const lines: string[] = [];
  if (limits.systemMaxUseMb >= 0) lines.push(`SystemMaxUse=${limits.systemMaxUseMb}M`);
  if (limits.runtimeMaxUseMb >= 0) lines.push(`RuntimeMaxUse=${limits.runtimeMaxUseMb}M`);
  if (lines.length === 0) return null;
  return ["# Written by svc-agent from the agent's system_configuration; changes here are overwritten.", "[Journal]", ...lines, ""].join("\n");
}

export interface ApplyJournaldOptions {
  root: string;
  run: CommandRunner;
  logger?: Logger;
}

/** Brings the drop-in in line with the limits; true when it changed (and journald was restarted). */
export async function applyJournaldLimits(limits: JournaldLimits, options: ApplyJournaldOptions): Promise<boolean> {
  const path = join(options.root, JOURNALD_DROP_IN);
  const text = journaldDropInText(limits);
  const changed = text === null ? removeIfPresent(path) : writeIfChanged(path, text);
  if (!changed) return false;
  options.logger?.info(text === null ? "journald limits removed" : "journald limits written", {
    file: path,
    system_max_use_mb: limits.systemMaxUseMb,
    runtime_max_use_mb: limits.runtimeMaxUseMb,
  });
  const result = await options.run("systemctl", ["restart", "systemd-journald"]);
  if (result.code !== 0) {
    // The drop-in is in place; journald reads it at its next start.
    options.logger?.warn("could not restart systemd-journald", { code: result.code, stderr: result.stderr.trim() });
  }
  return true;
}
