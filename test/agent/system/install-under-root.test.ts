// `svc-agent --install` under a root prefix, run as the real agent (and through tools/install.sh):
// the unit and the fallback are written under the prefix, and no system command runs at all. A
// `systemctl` first on the PATH records every call, so a call that slips through is seen.
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { AGENT_UNIT_PATH, FALLBACK_SCRIPT_PATH } from "../../../targets/linux/agent/system/index.js";
import { distLinux } from "../../helpers/run-cli.js";

const installSh = join(import.meta.dirname, "../../../tools/install.sh");
let dir: string;
let root: string;
let bin: string;
const calls = () => join(dir, "systemctl-calls");

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "svc-install-root-"));
  root = join(dir, "root");
  bin = join(dir, "bin");
  mkdirSync(root);
  mkdirSync(bin);
  writeFileSync(join(bin, "systemctl"), `#!/bin/sh\necho "systemctl $*" >> "${calls()}"\n`, { mode: 0o755 });
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

// An agent version whose svc-agent is the real agent, built into dist/.
function agentTree(at: string): void {
  mkdirSync(at, { recursive: true });
  writeFileSync(join(at, "svc-agent"), `#!/bin/sh\nexec "${process.execPath}" "${join(distLinux, "svc-agent.mjs")}" "$@"\n`, { mode: 0o755 });
}

const env = () => ({ PATH: `${bin}:${process.env.PATH}`, HOME: dir });

function expectNothingRun(output: string): void {
  expect(existsSync(calls()) ? readFileSync(calls(), "utf8") : "").toBe("");
  for (const command of ["systemctl daemon-reload", "systemctl enable --now svc-agent"]) {
    expect(output).toContain(`not run under the root prefix ${root}: ${command}`);
  }
  expect(readFileSync(join(root, AGENT_UNIT_PATH), "utf8")).toContain("ExecStart=/opt/svc/agent/current/svc-agent");
  expect(statSync(join(root, FALLBACK_SCRIPT_PATH)).mode & 0o777).toBe(0o755);
}

describe("svc-agent --install under a root prefix", () => {
  it("writes the unit and the fallback there and runs no system command, saying what it would have run", () => {
    agentTree(join(root, "opt/svc/agent/versions/1.0.0"));
    symlinkSync("versions/1.0.0", join(root, "opt/svc/agent/current"));
    const run = spawnSync(join(root, "opt/svc/agent/current/svc-agent"), ["--install"], {
      encoding: "utf8",
      env: { ...env(), SVC_AGENT_ROOT: root },
      timeout: 30_000,
    });
    expect(run.stderr).toContain(`installed ${join(root, AGENT_UNIT_PATH)}`);
    expect(run.status).toBe(0);
    expectNothingRun(run.stderr);
  });

  it("through tools/install.sh with SVC_ROOT", () => {
    const packages = join(dir, "packages");
    const stage = join(dir, "stage");
    agentTree(stage);
    mkdirSync(packages);
    execTar(join(packages, "svc-agent-1.0.0.tar.gz"), stage);
    const bytes = readFileSync(join(packages, "svc-agent-1.0.0.tar.gz"));
    const artifact = { url: "svc-agent-1.0.0.tar.gz", sha256: createHash("sha256").update(bytes).digest("hex"), size: bytes.length };
    writeFileSync(join(packages, "index.json"), JSON.stringify({ agent: { channels: { stable: "1.0.0" }, versions: { "1.0.0": { "linux/amd64": artifact, "linux/arm64": artifact } } } }));
    const run = spawnSync("sh", [installSh], {
      encoding: "utf8",
      env: { ...env(), SVC_ROOT: root, SVC_PACKAGE_URL: pathToFileURL(packages).href },
      timeout: 60_000,
    });
    expect(run.stderr).toContain("svc-agent 1.0.0 is installed");
    expect(run.status).toBe(0);
    expectNothingRun(run.stderr);
  });
});

function execTar(file: string, from: string): void {
  expect(spawnSync("tar", ["-czf", file, "-C", from, "."]).status).toBe(0);
}
