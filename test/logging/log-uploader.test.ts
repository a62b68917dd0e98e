// The machine's log upload against svc-cloud in this process, through its real RobotService.Log:
// every queued entry arrives once and in order across an outage (a real refused connection) and
// a restart of the queue; past the queue's bound the oldest go and one entry says how many; an
// entry larger than the cloud takes is cut to fit rather than stopping the batch; a batch the
// cloud refuses is not sent again and is counted as lost.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Code, ConnectError, createClient } from "@connectrpc/connect";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LOG_FIELD_LIMITS, type LogEntry } from "../../core/index.js";
import { createManualClock } from "../../core/manual-clock.js";
import { AppService } from "../../proto/gen/app/v1/app_pb.js";
import { RobotService } from "../../proto/gen/app/v1/robot_pb.js";
import type { LogEntry as WireLogEntry } from "../../proto/gen/common/v1/common_pb.js";
import { createLogUploader, DROPPED_LOGGER, openOfflineLogQueue, retryWait } from "../../targets/linux/logging/index.js";
import { createMachine } from "../../targets/cloud/storage/fleet.js";
import { cloudTransport, signedInClient } from "../helpers/cloud-client.js";
import { startInProcessCloud, type InProcessCloud } from "../helpers/cloud-in-process.js";

let cloud: InProcessCloud;
let scratch: string;
beforeAll(async () => {
  cloud = await startInProcessCloud();
  scratch = mkdtempSync(join(tmpdir(), "svc-log-upload-"));
});
afterAll(async () => {
  await cloud?.stop();
  rmSync(scratch, { recursive: true, force: true });
});

const entry = (i: number, extra: Partial<LogEntry> = {}): LogEntry => ({ time: Date.UTC(2026, 0, 1, 0, 0, i), level: "info", logger: "svc.test", message: `entry ${i}`, fields: { i }, ...extra });

/** A machine of the cloud: a Log sender with its part key, one that reaches nothing, and its logs as the app reads them, oldest first. */
async function machine(name: string) {
  const made = await createMachine(cloud.server.context.store.db, { locationId: cloud.init.location_id, organizationId: cloud.init.organization_id, name, editedBy: "test", now: cloud.clock.now() });
  const robot = await signedInClient(RobotService, cloud.url, made.partKey);
  // Nothing listens on port 1: the connection is refused, as when the cloud is down.
  const unreachable = createClient(RobotService, cloudTransport("http://127.0.0.1:1"));
  const app = await signedInClient(AppService, cloud.url, cloud.init.api_key);
  return {
    online: async (logs: WireLogEntry[]) => void (await robot.log({ id: made.partId, logs })),
    offline: async (logs: WireLogEntry[]) => void (await unreachable.log({ id: made.partId, logs })),
    logs: async () => (await app.getRobotPartLogs({ id: made.partId, limit: 1000n })).logs.sort((a, b) => Number(a.time!.seconds - b.time!.seconds) || a.time!.nanos - b.time!.nanos),
  };
}

function uploader(queue: ReturnType<typeof openOfflineLogQueue>, send: (logs: WireLogEntry[]) => Promise<void>, problems: string[] = []) {
  return createLogUploader({ queue, send, host: "rover", clock: createManualClock(Date.UTC(2026, 0, 2)), random: () => 0.5, onProblem: (p) => problems.push(p) });
}

describe("the log uploader", () => {
  it("sends every queued entry once and in order, across an outage and a restart", async () => {
    const m = await machine("outage");
    const dir = join(scratch, "outage");
    let queue = openOfflineLogQueue({ dir });
    const problems: string[] = [];
    let up = uploader(queue, m.offline, problems);
    for (let i = 0; i < 5; i++) queue.write(entry(i));
    await up.flush();
    expect(problems[0]).toMatch(/^log upload failed \(1 in a row\): \[unavailable\]/);
    expect(queue.size).toBe(5);

    // A restart: the queue read back from disk, more written, the cloud back.
    await up.close();
    queue.close();
    queue = openOfflineLogQueue({ dir });
    for (let i = 5; i < 10; i++) queue.write(entry(i));
    up = uploader(queue, m.online);
    await up.flush();
    await up.flush();
    const logs = await m.logs();
    expect(logs.map((l) => l.message)).toEqual(Array.from({ length: 10 }, (_, i) => `entry ${i}`));
    expect(logs[0]).toMatchObject({ host: "rover", level: "info", loggerName: "svc.test", fields: [{ i: 0 }] });
    expect(queue.size).toBe(0);
    await up.close();
    queue.close();
  });

  it("says in one entry how many the queue dropped past its bound while the cloud was away", async () => {
    const m = await machine("bounded");
    const queue = openOfflineLogQueue({ dir: join(scratch, "bounded"), maxEntries: 20 });
    for (let i = 0; i < 30; i++) queue.write(entry(i));
    const up = uploader(queue, m.online);
    await up.flush();
    const logs = await m.logs();
    expect(logs.filter((l) => l.loggerName === "svc.test").map((l) => l.message)).toEqual(Array.from({ length: 20 }, (_, i) => `entry ${i + 10}`));
    const notices = logs.filter((l) => l.loggerName === DROPPED_LOGGER);
    expect(notices).toHaveLength(1);
    expect(notices[0]).toMatchObject({ level: "warn", fields: [{ dropped: 10 }] });
    expect(notices[0]!.message).toMatch(/^10 log entries were dropped before they reached the cloud/);
    await up.close();
    queue.close();
  });

  it("cuts an entry larger than the cloud takes to fit, instead of losing the batch", async () => {
    const m = await machine("large");
    const queue = openOfflineLogQueue({ dir: join(scratch, "large") });
    let deep: Record<string, unknown> = { end: true };
    for (let i = 0; i < 40; i++) deep = { deep };
    queue.write(entry(1, { message: "é".repeat(50_000), logger: `svc.${"x".repeat(300)}`, fields: { many: Array.from({ length: 2000 }, (_, i) => i) } }));
    queue.write(entry(2, { fields: deep }));
    queue.write(entry(3, { fields: { big: 12345678901234567890n, error: new Error("boom") } }));
    // As deep as the cloud takes: kept whole.
    let deepest: Record<string, unknown> = { end: true };
    for (let i = 0; i < 31; i++) deepest = { deep: deepest };
    queue.write(entry(4, { fields: deepest }));
    const problems: string[] = [];
    const up = uploader(queue, m.online, problems);
    await up.flush();
    expect(problems).toEqual([]);
    const [first, second, third, fourth] = await m.logs();
    expect(first!.message.endsWith(" [cut]")).toBe(true);
    expect(Buffer.byteLength(first!.message)).toBeLessThanOrEqual(LOG_FIELD_LIMITS.message);
    expect(first!.message.startsWith("éé")).toBe(true);
    expect(Buffer.byteLength(first!.loggerName)).toBeLessThanOrEqual(LOG_FIELD_LIMITS.logger_name);
    expect(first!.fields).toEqual([{ fields_left_out: "fields of 2002 values, over the 1024 an entry may carry" }]);
    expect(second!.fields).toEqual([{ fields_left_out: "fields nested more than 32 deep" }]);
    expect(third!.fields[0]).toMatchObject({ big: "12345678901234567890", error: { name: "Error", message: "boom" } });
    expect(fourth!.fields).toEqual([deepest]);
    await up.close();
    queue.close();
  });

  it("does not send again a batch the cloud refuses, and counts its entries as lost", async () => {
    const m = await machine("refused");
    const queue = openOfflineLogQueue({ dir: join(scratch, "refused") });
    for (let i = 0; i < 3; i++) queue.write(entry(i));
    const problems: string[] = [];
    const refusing = async () => {
      throw new ConnectError("logs[0]: a rule of another cloud", Code.InvalidArgument);
    };
    let send: (logs: WireLogEntry[]) => Promise<void> = refusing;
    const up = uploader(queue, (logs) => send(logs), problems);
    await up.flush();
    expect(problems).toEqual(["the cloud refused 3 log entries; they are counted as dropped: [invalid_argument] logs[0]: a rule of another cloud"]);
    expect(queue.size).toBe(0);
    expect(up.refused).toBe(3);

    send = m.online;
    for (let i = 3; i < 5; i++) queue.write(entry(i));
    await up.flush();
    const logs = await m.logs();
    expect(logs.filter((l) => l.loggerName === "svc.test").map((l) => l.message)).toEqual(["entry 3", "entry 4"]);
    expect(logs.filter((l) => l.loggerName === DROPPED_LOGGER).map((l) => l.fields)).toEqual([[{ dropped: 3 }]]);
    expect(up.refused).toBe(0);
    await up.close();
    queue.close();
  });

  it("waits from 1 s doubling to a minute between failed attempts, each wait in the upper half at random", () => {
    expect([1, 2, 3, 4].map((n) => retryWait(n, () => 0))).toEqual([500, 1000, 2000, 4000]);
    expect([1, 2, 3].map((n) => retryWait(n, () => 0.999999))).toEqual([1000, 2000, 4000]);
    expect(retryWait(20, () => 0.999999)).toBe(60_000);
    expect(retryWait(20, () => 0)).toBe(30_000);
  });
});
