// svc-agent's command line and environment, driven as a real process.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { spawnSync } from "node:child_process";
import { distLinux, runCli } from "../helpers/run-cli.js";

// The agent runs until stopped: run it under a temporary root for a moment, then SIGTERM, and
// read what it said (logs are JSON lines on stdout).
function runAgentBriefly(args: string[], env: Record<string, string> = {}): string {
  const run = spawnSync(process.execPath, [join(distLinux, "svc-agent.mjs"), ...args], {
    encoding: "utf8",
    timeout: 4_000,
    killSignal: "SIGTERM",
    env: {
      PATH: process.env.PATH ?? "",
      HOME: process.env.HOME ?? "/root",
      TMPDIR: dir,
      SVC_AGENT_ROOT: join(dir, "root"),
      SVC_AGENT_RELEASE_INDEX: `file://${join(dir, "no-index.json")}`,
      ...env,
    },
  });
  return run.stdout + run.stderr;
}

let dir: string;
let missing: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "svc-agent-cli-"));
  missing = join(dir, "absent.json");
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("svc-agent options", () => {
  it("--help and -h list every option and variable", () => {
    for (const flag of ["--help", "-h"]) {
      const { code, stdout } = runCli("svc-agent", [flag]);
      expect(code).toBe(0);
      for (const text of ["-c, --config", "--defaults", "-d, --debug", "-w, --wait", "-h, --help", "--install", "--dev-mode",
        "SVC_AGENT_DEBUG", "SVC_AGENT_WAIT_FOR_UPDATE", "SVC_AGENT_DEVMODE", "SVC_AGENT_FAST_START=1", "/etc/svc.json", "/etc/svc-defaults.json"]) {
        expect(stdout).toContain(text);
      }
    }
  });

  it("exits 2 with usage on an unknown option", () => {
    const { code, stderr } = runCli("svc-agent", ["--frobnicate"]);
    expect(code).toBe(2);
    expect(stderr).toContain("flag provided but not defined: --frobnicate");
  });

  it("--install refuses, saying why, when no agent version is installed under its root", () => {
    const { code, stderr } = runCli("svc-agent", ["--install"], { env: { SVC_AGENT_ROOT: join(dir, "empty-root") } });
    expect(code).toBe(1);
    expect(stderr).toContain("--install");
    expect(stderr).toContain("install an agent version first");
  });

  it("starts svc-server at once by default, and waits for an update check with -w or its variable", () => {
    expect(runAgentBriefly(["--dev-mode", "-c", missing])).toContain("start mode: start svc-server at once");
    expect(runAgentBriefly(["--dev-mode", "-c", missing, "-w"])).toContain("start mode: wait for the network");
    expect(runAgentBriefly(["-c", missing], { SVC_AGENT_DEVMODE: "1", SVC_AGENT_WAIT_FOR_UPDATE: "1" })).toContain("start mode: wait for the network");
  });

  it("takes wait_for_update_check from the configuration, and SVC_AGENT_FAST_START=1 overrides it", () => {
    const file = join(dir, "svc.json");
    writeFileSync(file, JSON.stringify({ agent: { advanced_settings: { wait_for_update_check: true } } }));
    expect(runAgentBriefly(["--dev-mode", "-c", file])).toContain("start mode: wait for the network");
    expect(runAgentBriefly(["--dev-mode", "-c", file], { SVC_AGENT_FAST_START: "1" })).toContain("start mode: start svc-server at once");
  });

  it("turns on debug logging with -d or SVC_AGENT_DEBUG", () => {
    const debugLine = '"level":"debug"';
    expect(runAgentBriefly(["--dev-mode", "-c", missing])).not.toContain(debugLine);
    expect(runAgentBriefly(["--dev-mode", "-c", missing, "-d"])).toContain(debugLine);
    expect(runAgentBriefly(["-c", missing], { SVC_AGENT_DEVMODE: "true", SVC_AGENT_DEBUG: "1" })).toContain(debugLine);
  });
});
