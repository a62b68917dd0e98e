import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { AgentLockError, acquireAgentLock, cmdlineMentionsAgent } from "../../../targets/linux/agent/lock-file.js";

let dir: string;
let lockPath: string;
const children: ChildProcess[] = [];

// A real process that sleeps; `name` appears in its command line.
async function sleeper(name: string): Promise<ChildProcess> {
  const child = spawn(process.execPath, ["-e", "setInterval(() => {}, 1000)", name], { stdio: "ignore" });
  children.push(child);
  await new Promise((resolve) => child.once("spawn", resolve));
  return child;
}

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "svc-lock-"));
  lockPath = join(dir, "run", "svc-agent.lock");
});
afterEach(() => {
  for (const child of children.splice(0)) if (child.exitCode === null && child.signalCode === null && child.pid) process.kill(child.pid, "SIGKILL");
  rmSync(dir, { recursive: true, force: true });
});

describe("acquireAgentLock", () => {
  it("creates the lock holding our PID and removes it on release", () => {
    const lock = acquireAgentLock(lockPath);
    expect(readFileSync(lockPath, "utf8").trim()).toBe(String(process.pid));
    lock.release();
    expect(existsSync(lockPath)).toBe(false);
  });

  it("refuses while a live agent holds the lock, naming its PID and the lock", async () => {
    const agent = await sleeper("svc-agent-under-test");
    expect(cmdlineMentionsAgent(agent.pid!)).toBe(true);
    acquireAgentLock(lockPath, { pid: agent.pid });
    let error: unknown;
    try {
      acquireAgentLock(lockPath);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(AgentLockError);
    expect((error as AgentLockError).holder).toBe(agent.pid);
    expect((error as Error).message).toBe(`another svc-agent (PID ${agent.pid}) is running: ${lockPath} holds its PID`);
    expect(readFileSync(lockPath, "utf8").trim()).toBe(String(agent.pid));
  });

  it("takes over a lock whose PID is dead", async () => {
    const gone = await sleeper("svc-agent-gone");
    const pid = gone.pid!;
    const exited = new Promise((resolve) => gone.once("exit", resolve));
    process.kill(pid, "SIGKILL");
    await exited;
    acquireAgentLock(lockPath, { pid });
    const lock = acquireAgentLock(lockPath);
    expect(readFileSync(lockPath, "utf8").trim()).toBe(String(process.pid));
    lock.release();
  });

  it("takes over a lock whose PID is alive but not an agent", async () => {
    const other = await sleeper("some-other-daemon");
    expect(cmdlineMentionsAgent(other.pid!)).toBe(false);
    acquireAgentLock(lockPath, { pid: other.pid });
    const lock = acquireAgentLock(lockPath);
    expect(lock.pid).toBe(process.pid);
    expect(readFileSync(lockPath, "utf8").trim()).toBe(String(process.pid));
  });

  it("takes over an unreadable lock, and asks the injected check whether a PID is an agent", async () => {
    writeFileSync(join(dir, "garbage.lock"), "not a pid");
    expect(acquireAgentLock(join(dir, "garbage.lock")).pid).toBe(process.pid);
    const other = await sleeper("plain");
    acquireAgentLock(lockPath, { pid: other.pid });
    expect(() => acquireAgentLock(lockPath, { isAgentPid: (pid) => pid === other.pid })).toThrow(AgentLockError);
  });

  it("releases only a lock that still holds our PID", async () => {
    const lock = acquireAgentLock(lockPath);
    const agent = await sleeper("svc-agent-successor");
    writeFileSync(lockPath, `${agent.pid}\n`);
    lock.release();
    expect(readFileSync(lockPath, "utf8").trim()).toBe(String(agent.pid));
  });
});
