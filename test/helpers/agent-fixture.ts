// Real svc-agent runs for the agent's end-to-end tests: release artifacts built by
// `npm run package` (tools/package), a device root folder with the agent installed the way
// tools/install.sh installs it, and the agent started from there as a real process, stopped
// (or killed) by its PID. Time runs scaled (SVC_AGENT_TIME_SCALE), never by sleeping minutes.
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { createHash } from "node:crypto";
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, readlinkSync, renameSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { repoRoot } from "./module-fixtures.js";

export interface BuiltRelease {
  version: string;
  /** artifact file per product ("svc-server" | "agent"), linux/amd64. */
  server: string;
  agent: string;
}

/** Runs `npm run package`'s script for `version` into `outDir` (amd64 only, the test machine's arch). */
export function packageRelease(version: string, outDir: string): BuiltRelease {
  execFileSync(process.execPath, [join(repoRoot, "tools/package/index.mjs"), "--version", version, "--out", outDir, "--arch", "amd64", "--quiet"], {
    stdio: ["ignore", "ignore", "inherit"],
  });
  return {
    version,
    server: join(outDir, `svc-server-${version}-linux-amd64.tar.gz`),
    agent: join(outDir, `svc-agent-${version}-linux-amd64.tar.gz`),
  };
}

/**
 * A broken svc-server release made from a good artifact: the same files, but the entry point
 * answers `-version` and then fails at start (`exits`) or never serves (`hangs`).
 */
export function brokenServerRelease(from: string, version: string, how: "exits" | "hangs", outDir: string): string {
  const dir = mkdtempSync(join(tmpdir(), "svc-broken-"));
  try {
    execFileSync("tar", ["-xzf", from, "-C", dir]);
    const body = how === "exits" ? 'echo "svc-server: cannot start: broken release" >&2\nexit 1' : "exec sleep 100000";
    writeFileSync(join(dir, "svc-server"), `#!/bin/sh\ncase "$1" in -version|--version) echo "svc-server ${version}"; exit 0;; esac\n${body}\n`);
    chmodSync(join(dir, "svc-server"), 0o755);
    writeFileSync(join(dir, "svc-release.json"), `${JSON.stringify({ product: "svc-server", version, platform: "linux/amd64" })}\n`);
    const file = join(outDir, `svc-server-${version}-linux-amd64.tar.gz`);
    execFileSync("sh", ["-c", `tar -C "${dir}" -cf - . | gzip -9 > "${file}"`]);
    return file;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export interface ArtifactEntry {
  url: string;
  sha256: string;
  size: number;
}

export function artifactEntry(file: string, url: string): ArtifactEntry {
  const bytes = readFileSync(file);
  return { url, sha256: createHash("sha256").update(bytes).digest("hex"), size: bytes.length };
}

/** Installs an agent artifact under `root` the way tools/install.sh does. */
export function installAgent(root: string, artifact: string, version: string): string {
  const versionDir = join(root, "opt/svc/agent/versions", version);
  mkdirSync(versionDir, { recursive: true });
  execFileSync("tar", ["-xzf", artifact, "-C", versionDir]);
  const link = join(root, "opt/svc/agent/current.tmp");
  rmSync(link, { force: true });
  symlinkSync(join("versions", version), link);
  renameSync(link, join(root, "opt/svc/agent/current"));
  return join(root, "opt/svc/agent/current/svc-agent");
}

/** The version `current` points at for a product under `root`, or undefined. */
export function currentVersion(root: string, product: "svc-server" | "agent"): string | undefined {
  try {
    return readlinkSync(join(root, "opt/svc", product, "current")).split("/").pop();
  } catch {
    return undefined;
  }
}

export interface AgentProcess {
  readonly child: ChildProcess;
  output(): string;
  /** SIGTERM and wait for the exit. */
  stop(): Promise<number | null>;
  /** SIGKILL, as a power cut of the agent alone. */
  kill9(): Promise<void>;
  exited: Promise<number | null>;
}

export function startAgentProcess(executable: string, args: string[], env: Record<string, string>): AgentProcess {
  // Temporary files of the agent and of the servers it starts live under the device root, so
  // whatever a killed process leaves goes with the root.
  // So is their home folder (svc-server's diagnostics default to ~/.svc), unless the test names one.
  const temporary = env.SVC_AGENT_ROOT ? join(env.SVC_AGENT_ROOT, "tmp") : tmpdir();
  mkdirSync(temporary, { recursive: true });
  const home = env.SVC_AGENT_ROOT ? join(env.SVC_AGENT_ROOT, "home") : (process.env.HOME ?? "/root");
  mkdirSync(home, { recursive: true });
  const child = spawn(executable, ["--dev-mode", ...args], {
    stdio: ["ignore", "pipe", "pipe"],
    env: { PATH: process.env.PATH ?? "", HOME: home, TMPDIR: temporary, ...env },
  });
  let out = "";
  child.stdout!.on("data", (chunk) => (out += chunk));
  child.stderr!.on("data", (chunk) => (out += chunk));
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  return {
    child,
    output: () => out,
    exited,
    async stop() {
      child.kill("SIGTERM");
      return exited;
    },
    async kill9() {
      child.kill("SIGKILL");
      await exited;
    },
  };
}
