// Large log entries against svc-cloud in this process. A tail whose reader stops reading: what
// waits for it is bounded by bytes as well as by entries, so a few large entries cannot pile up
// without end; the tail is ended, saying so, and everything stays stored. A page of large entries
// is cut to fit one answer, and its next_page_token leads on; so is a page of entries dense with
// Struct values, which cost the one thread an object each to read.
import { connect } from "node:net";
import { create, toBinary } from "@bufbuild/protobuf";
import { timestampFromMs } from "@bufbuild/protobuf/wkt";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AppService, TailRobotPartLogsRequestSchema } from "../../proto/gen/app/v1/app_pb.js";
import { RobotService } from "../../proto/gen/app/v1/robot_pb.js";
import { MAX_PAGE_VALUES, MAX_TAIL_BACKLOG_BYTES } from "../../targets/cloud/api/logs-app.js";
import { createMachine } from "../../targets/cloud/storage/fleet.js";
import { countLogs } from "../../targets/cloud/storage/logs-store.js";
import { signedInClient, signIn } from "../helpers/cloud-client.js";
import { eventually } from "../helpers/eventually.js";
import { startInProcessCloud, type InProcessCloud } from "../helpers/cloud-in-process.js";

let cloud: InProcessCloud;
beforeAll(async () => {
  cloud = await startInProcessCloud();
});
afterAll(() => cloud?.stop());

const big = (i: number) => ({ host: "robot", level: "info", time: timestampFromMs(Date.UTC(2026, 0, 1) + i), loggerName: "flood", message: `${i} `.padEnd(60 * 1024, "x"), stack: "", fields: [] });

/** A tail over gRPC-web on a raw connection the test stops reading, as a client that never reads. */
function rawTail(partId: string, token: string) {
  const body = toBinary(TailRobotPartLogsRequestSchema, create(TailRobotPartLogsRequestSchema, { id: partId }));
  const frame = Buffer.concat([Buffer.from([0, 0, 0, 0, body.length]), body]);
  const socket = connect(Number(new URL(cloud.url).port), "localhost");
  let received = Buffer.alloc(0);
  socket.on("data", (chunk: Buffer) => (received = Buffer.concat([received, chunk])));
  socket.write(
    `POST /viam.app.v1.AppService/TailRobotPartLogs HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/grpc-web+proto\r\n` +
      `Authorization: Bearer ${token}\r\nContent-Length: ${frame.length}\r\n\r\n`,
  );
  socket.write(frame);
  return { socket, received: () => received.toString("latin1") };
}

describe("a tail whose reader stops reading", () => {
  it("is ended once more than MAX_TAIL_BACKLOG_BYTES wait for it", async () => {
    const made = await createMachine(cloud.server.context.store.db, { locationId: cloud.init.location_id, organizationId: cloud.init.organization_id, name: "flooded", editedBy: "test", now: cloud.clock.now() });
    const device = await signedInClient(RobotService, cloud.url, made.partKey);
    const app = await signedInClient(AppService, cloud.url, cloud.init.api_key);
    const tail = rawTail(made.partId, await signIn(cloud.url, cloud.init.api_key.id, cloud.init.api_key.key));
    await eventually(() => (tail.received().includes("200 OK") ? true : undefined), "the tail's answer to start");
    tail.socket.pause();

    const perCall = 50;
    const calls = Math.ceil((8 * MAX_TAIL_BACKLOG_BYTES) / (perCall * 60 * 1024));
    for (let c = 0; c < calls; c++) await device.log({ id: made.partId, logs: Array.from({ length: perCall }, (_, i) => big(c * perCall + i)) });

    tail.socket.resume();
    await eventually(() => (tail.received().includes("grpc-status: 8") ? true : undefined), "the tail ended as resource_exhausted");
    expect(/grpc-message: (\S+)/.exec(tail.received())?.[1]?.replace(/%20/g, " ")).toMatch(/^this tail fell more than/);
    tail.socket.destroy();
    expect(await countLogs(cloud.server.context.store.db, made.partId)).toBe(calls * perCall);
    const { logs } = await app.getRobotPartLogs({ id: made.partId, limit: 10n });
    expect(logs).toHaveLength(10);
  });
});

describe("a page of large entries", () => {
  it("is cut to fit one answer, and next_page_token reads on to the last", async () => {
    const made = await createMachine(cloud.server.context.store.db, { locationId: cloud.init.location_id, organizationId: cloud.init.organization_id, name: "large", editedBy: "test", now: cloud.clock.now() });
    const device = await signedInClient(RobotService, cloud.url, made.partKey);
    const app = await signedInClient(AppService, cloud.url, cloud.init.api_key);
    for (let c = 0; c < 4; c++) await device.log({ id: made.partId, logs: Array.from({ length: 50 }, (_, i) => big(c * 50 + i)) });
    const seen: string[] = [];
    let pageToken = "";
    let pages = 0;
    do {
      const page = await app.getRobotPartLogs({ id: made.partId, limit: 1000n, pageToken });
      seen.push(...page.logs.map((l) => l.message.split(" ")[0]!));
      pageToken = page.nextPageToken;
      pages += 1;
    } while (pageToken !== "");
    expect(pages).toBeGreaterThan(1);
    expect(seen).toEqual(Array.from({ length: 200 }, (_, i) => String(199 - i)));
  });
});

describe("a page of entries dense with Struct values", () => {
  it("holds at most MAX_PAGE_VALUES of them, and next_page_token reads on to the last", async () => {
    const made = await createMachine(cloud.server.context.store.db, { locationId: cloud.init.location_id, organizationId: cloud.init.organization_id, name: "dense", editedBy: "test", now: cloud.clock.now() });
    const device = await signedInClient(RobotService, cloud.url, made.partKey);
    const app = await signedInClient(AppService, cloud.url, cloud.init.api_key);
    const dense = (i: number) => ({ ...big(i), message: `${i}`, fields: [{ readings: Array.from({ length: 1000 }, (_, k) => k % 2 === 0) }] });
    await device.log({ id: made.partId, logs: Array.from({ length: 40 }, (_, i) => dense(i)) });
    const first = await app.getRobotPartLogs({ id: made.partId, limit: 1000n });
    expect(first.logs).toHaveLength(Math.floor(MAX_PAGE_VALUES / 1001));
    expect(first.logs[0]!.fields[0]).toEqual({ readings: Array.from({ length: 1000 }, (_, k) => k % 2 === 0) });
    const seen = first.logs.map((l) => l.message);
    let pageToken = first.nextPageToken;
    while (pageToken !== "") {
      const page = await app.getRobotPartLogs({ id: made.partId, limit: 1000n, pageToken });
      seen.push(...page.logs.map((l) => l.message));
      pageToken = page.nextPageToken;
    }
    expect(seen).toEqual(Array.from({ length: 40 }, (_, i) => String(39 - i)));
  });
});
