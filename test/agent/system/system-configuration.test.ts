import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { parseMachineConfig, type SystemConfiguration } from "../../../core/index.js";
import {
  AUTO_UPGRADES_FILE,
  JOURNALD_DROP_IN,
  UNATTENDED_UPGRADES_FILE,
  applySystemConfiguration,
  readAptSources,
} from "../../../targets/linux/agent/system/index.js";
import { createRecordingRunner } from "../../helpers/recording-runner.js";

let root: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), "svc-system-"));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

function systemConfig(section: Record<string, unknown>): SystemConfiguration {
  return parseMachineConfig({ agent: { system_configuration: section } }).config!.agent.system_configuration;
}

// journald's own view of its configuration under the root prefix.
function journaldConfig(): string {
  return execFileSync("systemd-analyze", ["cat-config", "systemd/journald.conf", `--root=${root}`], { encoding: "utf8" });
}

// apt's own view of its configuration under the root prefix (APT_CONFIG names a file setting Dir,
// so the host's /etc/apt is not read).
function aptConfig(): Map<string, string[]> {
  const conf = join(root, "apt-root.conf");
  writeFileSync(conf, `Dir "${root}/";\n`);
  const dump = execFileSync("apt-config", ["dump"], { encoding: "utf8", env: { ...process.env, APT_CONFIG: conf } });
  const values = new Map<string, string[]>();
  for (const line of dump.split("\n")) {
    const match = /^(\S+) "(.*)";$/.exec(line);
    if (match) values.set(match[1]!, [...(values.get(match[1]!) ?? []), match[2]!]);
  }
  return values;
}

function writeSources(): void {
  mkdirSync(join(root, "etc/apt/sources.list.d"), { recursive: true });
  writeFileSync(join(root, "etc/apt/sources.list"), "# the distribution\ndeb http://deb.debian.org/debian bookworm main\ndeb-src http://deb.debian.org/debian bookworm main\n");
  writeFileSync(
    join(root, "etc/apt/sources.list.d/debian.sources"),
    "Types: deb\nURIs: http://deb.debian.org/debian-security\nSuites: bookworm-security\nComponents: main\n\nTypes: deb\nURIs: http://deb.debian.org/debian\nSuites: bookworm-updates\nComponents: main\nEnabled: no\n",
  );
  writeFileSync(join(root, "etc/apt/sources.list.d/acme.list"), "deb [signed-by=/usr/share/keyrings/acme.gpg arch=amd64] https://apt.acme.example/repo stable main\ndeb http://flat.example/debs ./\n");
}

describe("journald limits", () => {
  it("writes the drop-in, read back by systemd-analyze, and restarts journald only when it changes", async () => {
    const runner = createRecordingRunner();
    const options = { root, run: runner.run };
    const first = await applySystemConfiguration(systemConfig({ logging_journald_system_max_use_megabytes: 300, logging_journald_runtime_max_use_megabytes: 40 }), options);
    expect(first.journald).toBe(true);
    const seen = journaldConfig();
    expect(seen).toContain(`# ${join(root, JOURNALD_DROP_IN)}`);
    expect(seen).toContain("[Journal]\nSystemMaxUse=300M\nRuntimeMaxUse=40M");
    expect(runner.commands).toEqual(["systemctl restart systemd-journald"]);

    const again = await applySystemConfiguration(systemConfig({ logging_journald_system_max_use_megabytes: 300, logging_journald_runtime_max_use_megabytes: 40 }), options);
    expect(again.journald).toBe(false);
    expect(runner.commands).toHaveLength(1);

    await applySystemConfiguration(systemConfig({ logging_journald_system_max_use_megabytes: 300, logging_journald_runtime_max_use_megabytes: -1 }), options);
    expect(journaldConfig()).not.toContain("RuntimeMaxUse");
    expect(journaldConfig()).toContain("SystemMaxUse=300M");

    const removed = await applySystemConfiguration(systemConfig({ logging_journald_system_max_use_megabytes: -1, logging_journald_runtime_max_use_megabytes: -1 }), options);
    expect(removed.journald).toBe(true);
    expect(existsSync(join(root, JOURNALD_DROP_IN))).toBe(false);
    expect(runner.commands).toEqual(Array(3).fill("systemctl restart systemd-journald"));
  });

  it("writes the defaults (512 MB each) for a configuration that says nothing", async () => {
    await applySystemConfiguration(systemConfig({}), { root, run: createRecordingRunner().run });
    expect(journaldConfig()).toContain("SystemMaxUse=512M\nRuntimeMaxUse=512M");
  });
});

describe("automatic OS upgrades", () => {
  it('"" leaves apt alone', async () => {
    writeSources();
    const runner = createRecordingRunner();
    const changes = await applySystemConfiguration(systemConfig({ os_auto_upgrade_type: "" }), { root, run: runner.run });
    expect(changes.upgrades).toEqual([]);
    expect(existsSync(join(root, AUTO_UPGRADES_FILE))).toBe(false);
    expect(runner.commands.some((c) => c.includes("apt") || c.includes("dpkg"))).toBe(false);
  });

  it('"disable" turns both periodic jobs off', async () => {
    const runner = createRecordingRunner();
    await applySystemConfiguration(systemConfig({ os_auto_upgrade_type: "disable" }), { root, run: runner.run });
    const apt = aptConfig();
    expect(apt.get("APT::Periodic::Update-Package-Lists")).toEqual(["0"]);
    expect(apt.get("APT::Periodic::Unattended-Upgrade")).toEqual(["0"]);
    expect(runner.commands.filter((c) => !c.startsWith("systemctl"))).toEqual([]);
  });

  it('"security" installs unattended-upgrades when missing and allows only the security sources', async () => {
    writeSources();
    const runner = createRecordingRunner();
    runner.answer("dpkg-query", { code: 1, stderr: "dpkg-query: no packages found matching unattended-upgrades" });
    const changes = await applySystemConfiguration(systemConfig({ os_auto_upgrade_type: "security" }), { root, run: runner.run });
    expect(runner.commands).toContain("dpkg-query -W -f=${Status} unattended-upgrades");
    expect(runner.commands.find((c) => c.includes("apt-get"))).toBe(
      "env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends -o Dpkg::Options::=--force-confold unattended-upgrades",
    );
    expect(changes.installedUnattendedUpgrades).toBe(true);
    const apt = aptConfig();
    expect(apt.get("APT::Periodic::Update-Package-Lists")).toEqual(["1"]);
    expect(apt.get("APT::Periodic::Unattended-Upgrade")).toEqual(["1"]);
    expect(apt.get("Unattended-Upgrade::Origins-Pattern::")).toEqual(["site=deb.debian.org,n=bookworm-security"]);
  });

  it('"all" allows every enabled source present, custom repositories included, and installs nothing already installed', async () => {
    writeSources();
    const runner = createRecordingRunner();
    runner.answer("dpkg-query", { stdout: "install ok installed" });
    const changes = await applySystemConfiguration(systemConfig({ os_auto_upgrade_type: "all" }), { root, run: runner.run });
    expect(changes.installedUnattendedUpgrades).toBe(false);
    expect(runner.commands.some((c) => c.includes("apt-get"))).toBe(false);
    expect(aptConfig().get("Unattended-Upgrade::Origins-Pattern::")).toEqual([
      "site=apt.acme.example,a=stable",
      "site=deb.debian.org,n=bookworm",
      "site=deb.debian.org,n=bookworm-security",
      "site=flat.example",
    ]);
    expect(changes.upgrades.sort()).toEqual([join(root, AUTO_UPGRADES_FILE), join(root, UNATTENDED_UPGRADES_FILE)].sort());
  });

  it("rewrites the files only when their content would change", async () => {
    writeSources();
    const runner = createRecordingRunner();
    runner.answer("dpkg-query", { stdout: "install ok installed" });
    const options = { root, run: runner.run };
    await applySystemConfiguration(systemConfig({ os_auto_upgrade_type: "all" }), options);
    const before = statSync(join(root, UNATTENDED_UPGRADES_FILE)).mtimeMs;
    expect((await applySystemConfiguration(systemConfig({ os_auto_upgrade_type: "all" }), options)).upgrades).toEqual([]);
    expect(statSync(join(root, UNATTENDED_UPGRADES_FILE)).mtimeMs).toBe(before);
    // A repository added since is picked up on the next apply.
    writeFileSync(join(root, "etc/apt/sources.list.d/more.list"), "deb http://more.example/debian bookworm-backports main\n");
    expect((await applySystemConfiguration(systemConfig({ os_auto_upgrade_type: "all" }), options)).upgrades).toEqual([join(root, UNATTENDED_UPGRADES_FILE)]);
    expect(readFileSync(join(root, UNATTENDED_UPGRADES_FILE), "utf8")).toContain('"site=more.example,n=bookworm-backports";');
  });

  it("writes the files even when the package cannot be installed, and says why", async () => {
    writeSources();
    const runner = createRecordingRunner();
    runner.answer("dpkg-query", { code: 1 });
    runner.answer("env DEBIAN_FRONTEND", { code: 100, stderr: "E: Unable to locate package unattended-upgrades" });
    const changes = await applySystemConfiguration(systemConfig({ os_auto_upgrade_type: "security" }), { root, run: runner.run });
    expect(changes.problems).toEqual(["unattended-upgrades: apt-get install failed (exit 100): E: Unable to locate package unattended-upgrades"]);
    expect(changes.upgrades).toHaveLength(2);
  });
});

describe("disable_system_configuration", () => {
  it("touches nothing at all", async () => {
    writeSources();
    const runner = createRecordingRunner();
    const changes = await applySystemConfiguration(systemConfig({ os_auto_upgrade_type: "all", logging_journald_system_max_use_megabytes: 10 }), {
      root,
      run: runner.run,
      disabled: true,
    });
    expect(changes).toEqual({ journald: false, upgrades: [], installedUnattendedUpgrades: false, problems: [] });
    expect(runner.commands).toEqual([]);
    expect(existsSync(join(root, JOURNALD_DROP_IN))).toBe(false);
    expect(existsSync(join(root, AUTO_UPGRADES_FILE))).toBe(false);
  });
});

describe("readAptSources", () => {
  it("reads one-line and deb822 sources, skipping deb-src, comments and disabled entries", () => {
    writeSources();
    expect(readAptSources(root)).toEqual([
      { site: "deb.debian.org", suite: "bookworm" },
      { site: "apt.acme.example", suite: "stable" },
      { site: "flat.example", suite: "./" },
      { site: "deb.debian.org", suite: "bookworm-security" },
    ]);
  });
});
