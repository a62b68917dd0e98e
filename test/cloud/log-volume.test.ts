// How much a part logs (GetLogVolume): its entries counted by level in equal spans of a range, the
// web app's chart; for those who may read the part's logs, and bounded in range and spans.
import { timestampFromMs } from "@bufbuild/protobuf/wkt";
import { Code, ConnectError, createClient } from "@connectrpc/connect";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RobotService } from "../../proto/gen/app/v1/robot_pb.js";
import { CloudService } from "../../proto/gen/svc/cloud/v1/cloud_pb.js";
import { cloudTransport, signedInClient } from "../helpers/cloud-client.js";
import { startCloud, type CloudProcess, type MachineCredentials } from "../helpers/cloud-process.js";

let cloud: CloudProcess;
let rover: MachineCredentials;
let arm: MachineCredentials;
const HOUR = 60 * 60_000;
// Whole hours, so the spans below are exact.
const START = Math.floor(Date.now() / HOUR) * HOUR - 6 * HOUR;

beforeAll(async () => {
  cloud = await startCloud();
  rover = cloud.createMachine("rover");
  arm = cloud.createMachine("arm");
  const device = await signedInClient(RobotService, cloud.url, rover.cloud.api_key);
  const entry = (level: string, at: number) => ({ host: "rover", level, time: timestampFromMs(at), loggerName: "rdk", message: level, caller: {}, stack: "", fields: [] });
  // Hour 0: 3 info; hour 1: 1 info, 2 error; hour 3: 1 warn. Sent out of order, in two calls.
  await device.log({ id: rover.cloud.id, logs: [entry("error", START + HOUR + 5), entry("info", START + 1), entry("info", START + 2), entry("warn", START + 3 * HOUR + 59 * 60_000)] });
  await device.log({ id: rover.cloud.id, logs: [entry("info", START + 3), entry("info", START + HOUR), entry("error", START + 2 * HOUR - 1)] });
});
afterAll(() => cloud.stop());

const codeOf = (promise: Promise<unknown>) => promise.then(() => "ok", (thrown: unknown) => Code[ConnectError.from(thrown).code]);

describe("GetLogVolume", () => {
  it("counts a part's entries by level in each span of the range", async () => {
    const owner = await signedInClient(CloudService, cloud.url, cloud.init.api_key);
    const answer = await owner.getLogVolume({ partId: rover.cloud.id, start: timestampFromMs(START), end: timestampFromMs(START + 4 * HOUR), buckets: 4 });
    expect(answer.levels).toEqual(["debug", "info", "warn", "error", "dpanic", "panic", "fatal"]);
    expect(answer.buckets.map((b) => Number(b.start!.seconds) * 1000)).toEqual([START, START + HOUR, START + 2 * HOUR, START + 3 * HOUR]);
    expect(answer.buckets.map((b) => b.counts)).toEqual([
      [0, 3, 0, 0, 0, 0, 0],
      [0, 1, 0, 2, 0, 0, 0],
      [0, 0, 0, 0, 0, 0, 0],
      [0, 0, 1, 0, 0, 0, 0],
    ]);
    // The end is not in the range: the entry at the second hour's first millisecond is the next span's.
    const first = await owner.getLogVolume({ partId: rover.cloud.id, start: timestampFromMs(START), end: timestampFromMs(START + HOUR), buckets: 1 });
    expect(first.buckets[0]!.counts[1]).toBe(3);
    // Another part's volume is its own.
    const other = await owner.getLogVolume({ partId: arm.cloud.id, start: timestampFromMs(START), end: timestampFromMs(START + 4 * HOUR), buckets: 2 });
    expect(other.buckets.map((b) => b.counts.reduce((a, n) => a + n, 0))).toEqual([0, 0]);
  });

  it("answers the last day in 48 spans when asked for no range", async () => {
    const owner = await signedInClient(CloudService, cloud.url, cloud.init.api_key);
    const answer = await owner.getLogVolume({ partId: rover.cloud.id });
    expect(answer.buckets).toHaveLength(48);
    expect(answer.buckets.flatMap((b) => b.counts).reduce((a, n) => a + n, 0)).toBe(7);
  });

  it("refuses what it may not answer and ranges it will not walk", async () => {
    const asArm = await signedInClient(CloudService, cloud.url, arm.cloud.api_key);
    expect(await codeOf(asArm.getLogVolume({ partId: rover.cloud.id }))).toMatch(/NotFound|PermissionDenied/);
    const anonymous = createClient(CloudService, cloudTransport(cloud.url));
    expect(await codeOf(anonymous.getLogVolume({ partId: rover.cloud.id }))).toBe("Unauthenticated");
    const owner = await signedInClient(CloudService, cloud.url, cloud.init.api_key);
    const at = (ms: number) => timestampFromMs(ms);
    expect(await codeOf(owner.getLogVolume({ partId: rover.cloud.id, buckets: 501 }))).toBe("InvalidArgument");
    expect(await codeOf(owner.getLogVolume({ partId: rover.cloud.id, start: at(START), end: at(START) }))).toBe("InvalidArgument");
    expect(await codeOf(owner.getLogVolume({ partId: rover.cloud.id, start: at(START - 40 * 24 * HOUR), end: at(START) }))).toBe("InvalidArgument");
    expect(await codeOf(owner.getLogVolume({ partId: "" }))).toBe("InvalidArgument");
    expect(await codeOf(owner.getLogVolume({ partId: "no-such-part" }))).toBe("NotFound");
  });
});
