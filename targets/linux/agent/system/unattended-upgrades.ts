// system_configuration.os_auto_upgrade_type, applied through Debian's unattended-upgrades:
//   ""          the system is left as it is
//   "disable"   /etc/apt/apt.conf.d/20auto-upgrades turns both periodic jobs off
//   "security"  upgrades from every source whose suite (codename) contains "security"
//   "all"       upgrades from every source configured at that time, custom repositories included
// For "all" and "security" the package is installed when missing, and 20auto-upgrades and
// 50unattended-upgrades are replaced by the agent's own. Files are written only when their text
// changes; the result says which were.
import { join } from "node:path";
import type { Logger, SystemConfiguration } from "../../../../core/index.js";
import type { CommandRunner } from "../../system/index.js";
import { readAptSources, type AptSource } from "./apt-sources.js";
import { writeIfChanged } from "../../system/atomic-file.js";

export const AUTO_UPGRADES_FILE = "/etc/apt/apt.conf.d/20auto-upgrades";
export const UNATTENDED_UPGRADES_FILE = "/etc/apt/apt.conf.d/50unattended-upgrades";
export const UNATTENDED_UPGRADES_PACKAGE = "unattended-upgrades";

export type AutoUpgradeType = SystemConfiguration["os_auto_upgrade_type"];

export interface ApplyUpgradesOptions {
  root: string;
  run: CommandRunner;
  logger?: Logger;
}

export interface UpgradesResult {
  /** Files written (root prefix included). */
  written: string[];
  /** The package was installed this time. */
  installed: boolean;
  /** Why the package could not be installed, when it could not. */
  installError?: string;
}

const header = (type: string) => `// Written by svc-agent (os_auto_upgrade_type "${type}"); changes here are overwritten.`;

export function autoUpgradesText(enabled: boolean, type: AutoUpgradeType): string {
  const on = enabled ? "1" : "0";
  return [header(type), `APT::Periodic::Update-Package-Lists "${on}";`, `APT::Periodic::Unattended-Upgrade "${on}";`, ""].join("\n");
}

/** 50unattended-upgrades for the sources: one Origins-Pattern line a source. */
export function unattendedUpgradesText(type: "all" | "security", sources: readonly AptSource[]): string {
  const chosen = type === "security" ? sources.filter((s) => s.suite.includes("security")) : sources;
  const patterns = Array.from(new Set(chosen.map(originPattern).filter((p): p is string => p !== null))).sort();
  return [
    header(type),
    "Unattended-Upgrade::Origins-Pattern {",
    ...patterns.map((p) => `        "${p}";`),
    "};",
    "",
  ].join("\n");
}

// A suite is a codename ("bookworm-security", matched as n=) or an archive name ("stable",
// matched as a=); a flat repository ("./") is matched by its host alone.
const archiveSuite = /^(old)*stable(-.*)?$|^(testing|unstable|experimental)(-.*)?$/;

function originPattern(source: AptSource): string | null {
  const safe = (value: string) => /^[^",\\\s]+$/.test(value);
  const parts: string[] = [];
  if (source.site !== "") {
    if (!safe(source.site)) return null;
    parts.push(`site=${source.site}`);
  }
  const suite = source.suite;
  if (!suite.endsWith("/")) {
    if (!safe(suite)) return null;
    parts.push(archiveSuite.test(suite) ? `a=${suite}` : `n=${suite}`);
  }
  return parts.length > 0 ? parts.join(",") : null;
}

export async function applyAutoUpgrades(type: AutoUpgradeType, options: ApplyUpgradesOptions): Promise<UpgradesResult> {
  const result: UpgradesResult = { written: [], installed: false };
  if (type === "") return result;
  const autoPath = join(options.root, AUTO_UPGRADES_FILE);
  if (type === "disable") {
    if (writeIfChanged(autoPath, autoUpgradesText(false, type))) result.written.push(autoPath);
    if (result.written.length > 0) options.logger?.info("automatic OS upgrades turned off", { file: autoPath });
    return result;
  }

  const install = await ensurePackage(options);
  result.installed = install.installed;
  if (install.error !== undefined) {
    result.installError = install.error;
    options.logger?.warn(`cannot install ${UNATTENDED_UPGRADES_PACKAGE}; its settings are written for when it is`, { error: install.error });
  }
  const sources = readAptSources(options.root);
  if (type === "security" && !sources.some((s) => s.suite.includes("security"))) {
    options.logger?.warn("os_auto_upgrade_type is \"security\" but no configured package source is a security one");
  }
  const unattendedPath = join(options.root, UNATTENDED_UPGRADES_FILE);
  if (writeIfChanged(unattendedPath, unattendedUpgradesText(type, sources))) result.written.push(unattendedPath);
  if (writeIfChanged(autoPath, autoUpgradesText(true, type))) result.written.push(autoPath);
  if (result.written.length > 0) options.logger?.info(`automatic OS upgrades set to "${type}"`, { files: result.written, sources: sources.length });
  return result;
}

async function ensurePackage(options: ApplyUpgradesOptions): Promise<{ installed: boolean; error?: string }> {
  const query = await options.run("dpkg-query", ["-W", "-f=${Status}", UNATTENDED_UPGRADES_PACKAGE]);
  if (query.code === 0 && query.stdout.includes("install ok installed")) return { installed: false };
  options.logger?.info(`installing ${UNATTENDED_UPGRADES_PACKAGE}`);
  // Our configuration files are written after the install; --force-confold keeps dpkg from
  // asking about the ones already there.
  const args = ["DEBIAN_FRONTEND=noninteractive", "apt-get", "install", "-y", "--no-install-recommends", "-o", "Dpkg::Options::=--force-confold", UNATTENDED_UPGRADES_PACKAGE];
  const install = await options.run("env", args);
  if (install.code === 0) return { installed: true };
  const said = (install.stderr || install.stdout).trim().split("\n").slice(-3).join(" ");
  return { installed: false, error: `apt-get install failed (${install.code === null ? "could not run" : `exit ${install.code}`})${said ? `: ${said}` : ""}` };
}
