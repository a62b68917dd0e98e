// svc-agent's command line and environment, driven as a real process.
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../helpers/run-cli.js";

let dir: string;
let missing: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "svc-agent-cli-"));
  missing = join(dir, "absent.json");
});

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

  it("says clearly that --install is not part of this version", () => {
    const { code, stderr } = runCli("svc-agent", ["--install"]);
    expect(code).toBe(1);
    expect(stderr).toContain("--install");
  });

  it("starts svc-server at once by default, and waits for an update check with -w or its variable", () => {
    expect(runCli("svc-agent", ["--dev-mode", "-c", missing]).stderr).toContain("start svc-server at once");
    expect(runCli("svc-agent", ["--dev-mode", "-c", missing, "-w"]).stderr).toContain("wait for the network");
    expect(runCli("svc-agent", ["-c", missing], { env: { SVC_AGENT_DEVMODE: "1", SVC_AGENT_WAIT_FOR_UPDATE: "1" } }).stderr)
      .toContain("wait for the network");
  });

  it("takes wait_for_update_check from the configuration, and SVC_AGENT_FAST_START=1 overrides it", () => {
    const file = join(dir, "svc.json");
    writeFileSync(file, JSON.stringify({ agent: { advanced_settings: { wait_for_update_check: true } } }));
    expect(runCli("svc-agent", ["--dev-mode", "-c", file]).stderr).toContain("wait for the network");
    expect(runCli("svc-agent", ["--dev-mode", "-c", file], { env: { SVC_AGENT_FAST_START: "1" } }).stderr)
      .toContain("start svc-server at once");
  });

  it("turns on debug logging with -d or SVC_AGENT_DEBUG", () => {
    expect(runCli("svc-agent", ["--dev-mode", "-c", missing, "-d"]).stderr).toContain("debug logging on");
    expect(runCli("svc-agent", ["-c", missing], { env: { SVC_AGENT_DEVMODE: "true", SVC_AGENT_DEBUG: "1" } }).stderr)
      .toContain("debug logging on");
  });
});
