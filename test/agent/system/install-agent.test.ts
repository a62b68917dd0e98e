import { execFileSync, spawnSync } from "node:child_process";
import { chmodSync, copyFileSync, lstatSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  AGENT_UNIT_PATH,
  FALLBACK_SCRIPT_PATH,
  agentUnitText,
  installAgentService,
  InstallError,
} from "../../../targets/linux/agent/system/index.js";
import { createRecordingRunner } from "../../helpers/recording-runner.js";

let root: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), "svc-install-agent-"));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

function installVersion(version: string): void {
  const dir = join(root, "opt/svc/agent/versions", version);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "svc-agent"), "#!/bin/sh\nexit 0\n", { mode: 0o755 });
  rmSync(join(root, "opt/svc/agent/current"), { force: true });
  symlinkSync(`versions/${version}`, join(root, "opt/svc/agent/current"));
}

// systemd-analyze verify under --root needs the targets the unit refers to: the host's own
// target and slice units are copied in.
function verify(unitPath: string): { code: number | null; stderr: string } {
  const units = join(root, "usr/lib/systemd/system");
  mkdirSync(units, { recursive: true });
  for (const name of readdirSync("/usr/lib/systemd/system")) {
    const from = join("/usr/lib/systemd/system", name);
    if ((name.endsWith(".target") || name.endsWith(".slice")) && !lstatSync(from).isSymbolicLink()) copyFileSync(from, join(units, name));
  }
  const result = spawnSync("systemd-analyze", ["verify", `--root=${root}`, "--man=false", unitPath], { encoding: "utf8" });
  return { code: result.status, stderr: result.stderr.trim() };
}

describe("svc-agent --install", () => {
  it("writes a unit that passes systemd-analyze verify", async () => {
    installVersion("1.0.0");
    const runner = createRecordingRunner();
    const result = await installAgentService({ root, run: runner.run });
    expect(result.unitPath).toBe(join(root, AGENT_UNIT_PATH));
    expect(verify(result.unitPath)).toEqual({ code: 0, stderr: "" });
    const unit = readFileSync(result.unitPath, "utf8");
    for (const line of [
      "Restart=always",
      "RestartSec=5",
      "KillMode=mixed",
      "TimeoutStopSec=90",
      "After=network-online.target",
      "Wants=network-online.target",
      "StartLimitIntervalSec=0",
      "ExecStartPre=-/opt/svc/agent/fallback.sh",
      "ExecStart=/opt/svc/agent/current/svc-agent",
      "WantedBy=multi-user.target",
    ]) {
      expect(unit.split("\n")).toContain(line);
    }
    expect(statSync(join(root, FALLBACK_SCRIPT_PATH)).mode & 0o777).toBe(0o755);
    expect(runner.commands).toEqual(["systemctl daemon-reload", "systemctl enable --now svc-agent"]);
  });

  it("the verify check catches a broken unit (so passing it means something)", () => {
    installVersion("1.0.0");
    mkdirSync(join(root, "opt/svc/agent"), { recursive: true });
    writeFileSync(join(root, FALLBACK_SCRIPT_PATH), "#!/bin/sh\n", { mode: 0o755 });
    const unitPath = join(root, AGENT_UNIT_PATH);
    mkdirSync(join(root, "etc/systemd/system"), { recursive: true });
    writeFileSync(unitPath, agentUnitText().replace("KillMode=mixed", "KillMode=sometimes"));
    expect(verify(unitPath).stderr).toContain("Failed to parse kill mode");
    writeFileSync(unitPath, agentUnitText({ executable: "/opt/svc/agent/current/missing" }));
    expect(verify(unitPath).stderr).toContain("/opt/svc/agent/current/missing");
  });

  it("is idempotent: a second install writes nothing and leaves the files as they were", async () => {
    installVersion("1.0.0");
    const runner = createRecordingRunner();
    const first = await installAgentService({ root, run: runner.run });
    expect(first.written).toEqual([join(root, AGENT_UNIT_PATH), join(root, FALLBACK_SCRIPT_PATH)]);
    const before = statSync(first.unitPath).mtimeMs;
    const second = await installAgentService({ root, run: runner.run });
    expect(second.written).toEqual([]);
    expect(statSync(first.unitPath).mtimeMs).toBe(before);
    expect(second.commands).toEqual(["systemctl daemon-reload", "systemctl enable --now svc-agent"]);
  });

  it("refuses when no agent version is installed, and reports a failing systemctl", async () => {
    const runner = createRecordingRunner();
    await expect(installAgentService({ root, run: runner.run })).rejects.toThrow(InstallError);
    expect(runner.commands).toEqual([]);
    installVersion("1.0.0");
    runner.answer("systemctl enable", { code: 1, stderr: "Failed to enable unit: Access denied" });
    await expect(installAgentService({ root, run: runner.run })).rejects.toThrow(
      "systemctl enable --now svc-agent failed (exit 1): Failed to enable unit: Access denied",
    );
  });
});

describe("the self-update fallback script", () => {
  const marker = () => join(root, "var/lib/svc-agent/agent-update.json");
  const current = () => join(root, "opt/svc/agent/current");

  async function prepare(): Promise<string> {
    installVersion("1.0.0");
    installVersion("2.0.0");
    await installAgentService({ root, run: createRecordingRunner().run });
    mkdirSync(join(root, "var/lib/svc-agent"), { recursive: true });
    return join(root, FALLBACK_SCRIPT_PATH);
  }
  const runScript = (script: string) => spawnSync("sh", [script], { env: { PATH: process.env.PATH, SVC_ROOT: root }, encoding: "utf8" });

  it("does nothing without an update marker", async () => {
    const script = await prepare();
    expect(runScript(script).status).toBe(0);
    expect(execFileSync("readlink", [current()], { encoding: "utf8" }).trim()).toBe("versions/2.0.0");
  });

  it("counts starts of a new version and, past three, points current back at the previous one", async () => {
    const script = await prepare();
    writeFileSync(marker(), JSON.stringify({ version: "2.0.0", previous: "1.0.0", attempts: 0 }));
    for (let start = 1; start <= 3; start++) {
      expect(runScript(script).status).toBe(0);
      expect(JSON.parse(readFileSync(marker(), "utf8"))).toEqual({ version: "2.0.0", previous: "1.0.0", attempts: start });
      expect(execFileSync("readlink", [current()], { encoding: "utf8" }).trim()).toBe("versions/2.0.0");
    }
    const fourth = runScript(script);
    expect(fourth.status).toBe(0);
    expect(fourth.stderr).toContain("back to 1.0.0");
    expect(JSON.parse(readFileSync(marker(), "utf8"))).toEqual({ version: "2.0.0", previous: "1.0.0", attempts: 4, rolled_back: true });
    expect(execFileSync("readlink", [current()], { encoding: "utf8" }).trim()).toBe("versions/1.0.0");
    expect(lstatSync(current()).isSymbolicLink()).toBe(true);
    // The old agent runs again; later starts leave the marker for it to read.
    runScript(script);
    expect(JSON.parse(readFileSync(marker(), "utf8")).attempts).toBe(4);
    expect(readdirSync(join(root, "opt/svc/agent")).sort()).toEqual(["current", "fallback.sh", "versions"]);
  });

  it("keeps current when the previous version is not there to go back to", async () => {
    const script = await prepare();
    writeFileSync(marker(), JSON.stringify({ version: "2.0.0", previous: "0.9.0", attempts: 3 }));
    const result = runScript(script);
    expect(result.status).toBe(0);
    expect(result.stderr).toContain("no version 0.9.0");
    expect(execFileSync("readlink", [current()], { encoding: "utf8" }).trim()).toBe("versions/2.0.0");
    expect(JSON.parse(readFileSync(marker(), "utf8"))).toEqual({ version: "2.0.0", previous: "0.9.0", attempts: 4 });
  });

  it("reads a marker written with spaces and newlines", async () => {
    const script = await prepare();
    writeFileSync(marker(), '{\n  "version": "2.0.0",\n  "previous": "1.0.0",\n  "attempts": 3\n}\n');
    chmodSync(script, 0o755);
    expect(spawnSync(script, [], { env: { PATH: process.env.PATH, SVC_ROOT: root } }).status).toBe(0);
    expect(execFileSync("readlink", [current()], { encoding: "utf8" }).trim()).toBe("versions/1.0.0");
  });
});
