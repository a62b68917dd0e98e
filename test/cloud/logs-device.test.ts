// Machines send their logs through RobotService.Log with their part key; people read them with
// GetRobotPartLogs (levels, text, time range, pages, newest first) and follow them with
// TailRobotPartLogs. The hostile half: no, wrong, revoked or another part's credentials, too many
// entries, oversize fields, malformed entry bytes, a tail client that goes away.
import { create, toBinary } from "@bufbuild/protobuf";
import { timestampFromMs, timestampMs } from "@bufbuild/protobuf/wkt";
import { createClient, type Client } from "@connectrpc/connect";
import { createConnectTransport } from "@connectrpc/connect-node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AppService } from "../../proto/gen/app/v1/app_pb.js";
import { RobotService } from "../../proto/gen/app/v1/robot_pb.js";
import { LogEntrySchema } from "../../proto/gen/common/v1/common_pb.js";
import { LogBatchSchema } from "../../proto/gen/svc/cloud/v1/cloud_pb.js";
import { openStore } from "../../targets/cloud/storage/open-store.js";
import { revokeApiKey } from "../../targets/cloud/storage/api-keys.js";
import { bearer, cloudTransport, signedInClient, signIn } from "../helpers/cloud-client.js";
import { startCloud, type CloudProcess, type MachineCredentials } from "../helpers/cloud-process.js";
import { eventually } from "../helpers/eventually.js";

const BASE = Date.UTC(2026, 5, 1, 12);

let cloud: CloudProcess;
let machine: MachineCredentials;
let other: MachineCredentials;
let device: Client<typeof RobotService>;
let app: Client<typeof AppService>;

const entry = (i: number, level = "info", message = `entry ${i}`) => ({
  host: "robot-1",
  level,
  time: timestampFromMs(BASE + i * 1000),
  loggerName: "rdk.resource_manager",
  message,
  caller: { File: "manager.go", Line: i, Defined: true },
  stack: "",
  fields: [{ resource: `sensor-${i}` }],
});

beforeAll(async () => {
  cloud = await startCloud();
  machine = cloud.createMachine("logger");
  other = cloud.createMachine("neighbour");
  device = await signedInClient(RobotService, cloud.url, machine.cloud.api_key);
  app = await signedInClient(AppService, cloud.url, cloud.init.api_key);
});
afterAll(() => cloud?.stop());

describe("Log and GetRobotPartLogs", () => {
  it("stores a batch and reads it back newest first, field for field", async () => {
    await device.log({ id: machine.cloud.id, logs: [entry(1), entry(2, "error", "motor stalled"), entry(3, "WARN")] });
    const { logs, nextPageToken } = await app.getRobotPartLogs({ id: machine.cloud.id });
    expect(logs.map((l) => l.message)).toEqual(["entry 3", "motor stalled", "entry 1"]);
    expect(logs.map((l) => l.level)).toEqual(["warn", "error", "info"]);
    expect(nextPageToken).toBe("");
    const last = logs[2]!;
    expect(timestampMs(last.time!)).toBe(BASE + 1000);
    expect(last).toMatchObject({ host: "robot-1", loggerName: "rdk.resource_manager", caller: { File: "manager.go", Line: 1, Defined: true }, fields: [{ resource: "sensor-1" }] });
  });

  it("filters by level, text and time range, and pages with next_page_token", async () => {
    const batch = Array.from({ length: 50 }, (_, i) => entry(100 + i, i % 5 === 0 ? "error" : "debug", i % 7 === 0 ? `Gripper fault ${i}` : `tick ${i}`));
    await device.log({ id: machine.cloud.id, logs: batch });
    const errors = await app.getRobotPartLogs({ id: machine.cloud.id, levels: ["error"], start: timestampFromMs(BASE + 100_000) });
    expect(errors.logs.map((l) => l.message)).toEqual(["tick 45", "tick 40", "Gripper fault 35", "tick 30", "tick 25", "tick 20", "tick 15", "tick 10", "tick 5", "Gripper fault 0"]);
    const gripper = await app.getRobotPartLogs({ id: machine.cloud.id, filter: "GRIPPER", end: timestampFromMs(BASE + 120_000) });
    expect(gripper.logs.map((l) => l.message)).toEqual(["Gripper fault 14", "Gripper fault 7", "Gripper fault 0"]);
    const literal = await app.getRobotPartLogs({ id: machine.cloud.id, filter: "%" });
    expect(literal.logs).toEqual([]);

    const seen: string[] = [];
    let pageToken: string | undefined;
    do {
      const page = await app.getRobotPartLogs({ id: machine.cloud.id, levels: ["debug"], limit: 15n, pageToken });
      seen.push(...page.logs.map((l) => l.message));
      pageToken = page.nextPageToken || undefined;
    } while (pageToken !== undefined);
    expect(seen).toHaveLength(40);
    expect(seen[0]).toBe("Gripper fault 49");
    expect(seen.at(-1)).toBe("tick 1");
    expect(new Set(seen).size).toBe(40);
  });

  it("refuses more than 1,000 entries, oversize fields and unknown levels, naming the entry", async () => {
    const many = Array.from({ length: 1001 }, (_, i) => entry(i));
    await expect(device.log({ id: machine.cloud.id, logs: many })).rejects.toThrow(/\[invalid_argument\] logs: at most 1000 entries a call \(got 1001\)/);
    const huge = [entry(1), { ...entry(2), message: "x".repeat(70 * 1024) }];
    await expect(device.log({ id: machine.cloud.id, logs: huge })).rejects.toThrow(/logs\[1\]\.message: at most 65536 bytes \(got 71680\)/);
    await expect(device.log({ id: machine.cloud.id, logs: [{ ...entry(1), loggerName: "l".repeat(300) }] })).rejects.toThrow(/logs\[0\]\.logger_name: at most 256 bytes/);
    await expect(device.log({ id: machine.cloud.id, logs: [entry(1, "loud")] })).rejects.toThrow(/logs\[0\]\.level: "loud" is not a log level/);
    await expect(app.getRobotPartLogs({ id: machine.cloud.id, limit: 5000n })).rejects.toThrow(/limit: 1 to 1000/);
    await expect(app.getRobotPartLogs({ id: machine.cloud.id, pageToken: "' or 1=1 --" })).rejects.toThrow(/page_token: not a token this service gave/);
    // Nothing of a refused batch was kept.
    const { logs } = await app.getRobotPartLogs({ id: machine.cloud.id, filter: "x".repeat(100) });
    expect(logs).toEqual([]);
  });

  it("refuses no token, a wrong token, a revoked key and another part's key", async () => {
    const anonymous = createClient(RobotService, cloudTransport(cloud.url));
    await expect(anonymous.log({ id: machine.cloud.id, logs: [entry(1)] })).rejects.toThrow(/\[unauthenticated\]/);
    const forged = createClient(RobotService, cloudTransport(cloud.url, "grpc", [bearer("eyJhbGciOiJFUzI1NiJ9.e30.AAAA")]));
    await expect(forged.log({ id: machine.cloud.id, logs: [entry(1)] })).rejects.toThrow(/\[unauthenticated\] invalid access token/);

    const neighbour = await signedInClient(RobotService, cloud.url, other.cloud.api_key);
    await expect(neighbour.log({ id: machine.cloud.id, logs: [entry(1, "error", "planted")] })).rejects.toThrow(/\[not_found\] part .* not found/);
    const neighbourReads = await signedInClient(AppService, cloud.url, other.cloud.api_key);
    await expect(neighbourReads.getRobotPartLogs({ id: machine.cloud.id })).rejects.toThrow(/\[permission_denied\]/);

    const doomed = cloud.createMachine("doomed");
    const token = await signIn(cloud.url, doomed.cloud.api_key.id, doomed.cloud.api_key.key);
    const store = await openStore(cloud.dataDir);
    await revokeApiKey(store.db, doomed.cloud.api_key.id, Date.now()).finally(() => store.close());
    const revoked = createClient(RobotService, cloudTransport(cloud.url, "grpc", [bearer(token)]));
    await expect(revoked.log({ id: doomed.cloud.id, logs: [entry(1)] })).rejects.toThrow(/\[unauthenticated\] the API key of this token was revoked/);

    const { logs } = await app.getRobotPartLogs({ id: machine.cloud.id, filter: "planted" });
    expect(logs).toEqual([]);
  });
});

/** A Log call in binary gRPC-web with entries as raw bytes; answers the call's status and message. */
async function rawLog(token: string, partId: string, entries: Uint8Array[]): Promise<{ status: number; message: string }> {
  const message = toBinary(LogBatchSchema, create(LogBatchSchema, { id: partId, logs: entries }));
  const body = Buffer.concat([Buffer.from([0, message.length >>> 24, (message.length >>> 16) & 255, (message.length >>> 8) & 255, message.length & 255]), message]);
  const response = await fetch(`${cloud.url}/viam.app.v1.RobotService/Log`, {
    method: "POST",
    headers: { "content-type": "application/grpc-web+proto", authorization: `Bearer ${token}` },
    body,
  });
  const bytes = Buffer.from(await response.arrayBuffer());
  const headerStatus = response.headers.get("grpc-status");
  if (headerStatus !== null) return { status: Number(headerStatus), message: decodeURIComponent(response.headers.get("grpc-message") ?? "") };
  let at = 0;
  while (at < bytes.length && (bytes[at]! & 0x80) === 0) at += 5 + bytes.readUInt32BE(at + 1);
  const trailers = bytes.subarray(at + 5).toString("utf8");
  return { status: Number(/grpc-status: ?(\d+)/.exec(trailers)?.[1]), message: decodeURIComponent(/grpc-message: ?(.*)/.exec(trailers)?.[1]?.trim() ?? "") };
}

describe("entries as bytes on the wire", () => {
  const encoded = (i: number, message = `raw ${i}`) => toBinary(LogEntrySchema, create(LogEntrySchema, { ...entry(i, "info", message) }));

  it("refuses a call with one malformed entry, naming it, and keeps nothing of the call", async () => {
    const part = cloud.createMachine("raw-bytes");
    const token = await signIn(cloud.url, part.cloud.api_key.id, part.cloud.api_key.key);
    const badUtf8 = new Uint8Array([...encoded(3), 0x2a, 0x02, 0xc3, 0x28]);
    const nestedTooDeep = toBinary(LogEntrySchema, create(LogEntrySchema, { level: "info", fields: [JSON.parse("{\"a\":".repeat(40) + "1" + "}".repeat(40))] }));
    expect(await rawLog(token, part.cloud.id, [encoded(1), encoded(2), badUtf8])).toEqual({ status: 3, message: "logs[2].message: not valid UTF-8" });
    expect(await rawLog(token, part.cloud.id, [nestedTooDeep])).toEqual({ status: 3, message: "logs[0].fields: not a well-formed google.protobuf.Struct (nested more than 32 deep)" });
    expect(await rawLog(token, part.cloud.id, [new Uint8Array([0x0a, 0x09, 0x41])])).toEqual({ status: 3, message: "logs[0]: not a well-formed LogEntry (a field of 9 bytes runs past the message's end)" });
    const reader = app;
    expect((await reader.getRobotPartLogs({ id: part.cloud.id })).logs).toEqual([]);

    // A good call after them is kept whole, a newer machine's extra field and all.
    const withUnknown = new Uint8Array([...encoded(4), 0x48, 0x07]);
    expect(await rawLog(token, part.cloud.id, [encoded(3), withUnknown])).toEqual({ status: 0, message: "" });
    expect((await reader.getRobotPartLogs({ id: part.cloud.id })).logs.map((l) => l.message)).toEqual(["raw 4", "raw 3"]);
  });

  it("stores what comes the general way (Connect's JSON) as the same entries", async () => {
    const part = cloud.createMachine("json-logger");
    const token = await signIn(cloud.url, part.cloud.api_key.id, part.cloud.api_key.key);
    const json = createClient(RobotService, createConnectTransport({ baseUrl: cloud.url, httpVersion: "1.1", interceptors: [bearer(token)] }));
    await json.log({ id: part.cloud.id, logs: [entry(7, "ERROR", "from json")] });
    await expect(json.log({ id: part.cloud.id, logs: [entry(8, "shout")] })).rejects.toThrow(/logs\[0\]\.level: "shout" is not a log level/);
    const { logs } = await app.getRobotPartLogs({ id: part.cloud.id });
    expect(logs).toHaveLength(1);
    expect(logs[0]).toMatchObject({ level: "error", message: "from json", host: "robot-1", caller: { File: "manager.go", Line: 7, Defined: true }, fields: [{ resource: "sensor-7" }] });
  });
});

describe("TailRobotPartLogs", () => {
  it("streams new entries as they arrive, with errors_only and a filter, and lets go when the client goes", async () => {
    const tailer = cloud.createMachine("tailed");
    const tailedDevice = await signedInClient(RobotService, cloud.url, tailer.cloud.api_key);
    const abort = new AbortController();
    const stream = app.tailRobotPartLogs({ id: tailer.cloud.id, errorsOnly: true, filter: "arm" }, { signal: abort.signal })[Symbol.asyncIterator]();
    const opening = await stream.next();
    expect(opening.value.logs).toEqual([]);

    await tailedDevice.log({ id: tailer.cloud.id, logs: [entry(1, "info", "arm moving"), entry(2, "error", "arm fault"), entry(3, "error", "base fault")] });
    const next = await stream.next();
    expect(next.value.logs.map((l: { message: string }) => l.message)).toEqual(["arm fault"]);
    abort.abort();
    await expect(stream.next()).rejects.toThrow(/aborted|canceled/i);

    // The service still takes logs and serves new tails after the client went.
    await tailedDevice.log({ id: tailer.cloud.id, logs: [entry(4, "error", "arm fault again")] });
    const again = app.tailRobotPartLogs({ id: tailer.cloud.id })[Symbol.asyncIterator]();
    expect((await again.next()).value.logs).toEqual([]);
    await tailedDevice.log({ id: tailer.cloud.id, logs: [entry(5, "debug", "after")] });
    expect((await again.next()).value.logs.map((l: { message: string }) => l.message)).toEqual(["after"]);
    await again.return?.();
  });

  it("refuses a tail of another organisation's or an unknown part", async () => {
    const neighbourReads = await signedInClient(AppService, cloud.url, other.cloud.api_key);
    await expect(neighbourReads.tailRobotPartLogs({ id: machine.cloud.id })[Symbol.asyncIterator]().next()).rejects.toThrow(/\[permission_denied\]/);
    await expect(app.tailRobotPartLogs({ id: "no-such-part" })[Symbol.asyncIterator]().next()).rejects.toThrow(/\[not_found\] part no-such-part not found/);
    await eventually(() => (cloud.child.exitCode === null ? true : undefined), "svc-cloud still running");
  });
});
