import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createAgentLogging } from "../../../targets/linux/agent/agent-logging.js";
import { openOfflineLogQueue } from "../../../targets/linux/logging/index.js";

let stateDir: string;
beforeEach(() => {
  stateDir = mkdtempSync(join(tmpdir(), "svc-agent-logging-"));
});
afterEach(() => rmSync(stateDir, { recursive: true, force: true }));

function stdoutLines() {
  const lines: string[] = [];
  return { lines, stream: { write: (text: string) => lines.push(...text.split("\n").filter((l) => l !== "")), isTTY: false } };
}

describe("the agent's logging", () => {
  it("writes JSON lines to stdout and queues them for the cloud in stateDir/log-queue", () => {
    const out = stdoutLines();
    const logging = createAgentLogging({ stateDir, output: { stdout: out.stream, pretty: false } });
    logging.logger.info("agent started", { version: "1.0.0" });
    logging.logger.debug("not shown");
    expect(out.lines.map((l) => JSON.parse(l))).toEqual([expect.objectContaining({ level: "info", logger: "svc-agent", msg: "agent started", version: "1.0.0" })]);
    expect(logging.queue.size).toBe(1);
    logging.close();
    // The queue is on disk: it survives a restart of the agent.
    const reopened = openOfflineLogQueue({ dir: join(stateDir, "log-queue") });
    expect(reopened.peek().entries.map((e) => e.entry.message)).toEqual(["agent started"]);
    reopened.close();
  });

  it("logs debug with -d, or once advanced_settings.debug is set", () => {
    const out = stdoutLines();
    const flagged = createAgentLogging({ stateDir, debug: true, output: { stdout: out.stream, pretty: false } });
    flagged.logger.debug("with -d");
    flagged.close();
    const later = createAgentLogging({ stateDir, output: { stdout: out.stream, pretty: false } });
    later.logger.debug("hidden");
    later.setDebug(true);
    later.logger.debug("after the settings");
    later.close();
    expect(out.lines.map((l) => JSON.parse(l).msg)).toEqual(["with -d", "after the settings"]);
  });
});
