// Log entries are kept 30 days from when they arrived and then deleted by svc-cloud itself, in
// small batches, while machines keep sending; the time an entry carries does not shorten it (a
// machine whose clock was never set logs from 1970). Time is moved by the test: svc-cloud runs in
// this process on its clock.
import { timestampFromMs } from "@bufbuild/protobuf/wkt";
import type { Client } from "@connectrpc/connect";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { AppService } from "../../proto/gen/app/v1/app_pb.js";
import { RobotService } from "../../proto/gen/app/v1/robot_pb.js";
import { LOG_RETENTION_MS } from "../../targets/cloud/fleet/log-retention.js";
import { createMachine } from "../../targets/cloud/storage/fleet.js";
import { countLogs } from "../../targets/cloud/storage/logs-store.js";
import { signedInClient } from "../helpers/cloud-client.js";
import { startInProcessCloud, type InProcessCloud } from "../helpers/cloud-in-process.js";
import { eventually } from "../helpers/eventually.js";

const DAY = 24 * 60 * 60_000;

let cloud: InProcessCloud;
beforeEach(async () => {
  cloud = await startInProcessCloud();
});
afterEach(() => cloud?.stop());

async function newPart(name: string) {
  const db = cloud.server.context.store.db;
  const made = await createMachine(db, { locationId: cloud.init.location_id, organizationId: cloud.init.organization_id, name, editedBy: "test", now: cloud.clock.now() });
  return { id: made.partId, key: made.partKey };
}

const batch = (from: number, count: number, at: number) =>
  Array.from({ length: count }, (_, i) => ({ level: "info", message: `entry ${from + i}`, time: timestampFromMs(at + i), host: "", loggerName: "test", stack: "", fields: [] }));

describe("log retention", () => {
  it("deletes entries 30 days after they arrived, in batches while logs keep arriving, and keeps the rest", async () => {
    const db = cloud.server.context.store.db;
    const part = await newPart("aged");
    let device: Client<typeof RobotService> = await signedInClient(RobotService, cloud.url, part.key);
    const start = cloud.clock.now();
    // 3,500 entries in 50 calls, half of them a day old, half from a clock never set (1970): three
    // batches of calls once they expire.
    for (let c = 0; c < 50; c++) await device.log({ id: part.id, logs: batch(c * 70, 70, c % 2 === 0 ? start - DAY + c * 70 : c * 70) });
    expect(await countLogs(db, part.id)).toBe(3500);

    // 29 days on nothing has expired, not even what says it is from 1970: sweeps run and keep
    // everything. Ten young entries arrive (with a new token: the old one expired meanwhile).
    cloud.clock.advance(LOG_RETENTION_MS - DAY);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(await countLogs(db, part.id)).toBe(3500);
    device = await signedInClient(RobotService, cloud.url, part.key);
    await device.log({ id: part.id, logs: batch(10_000, 10, cloud.clock.now()) });

    // 30 days after they came the old ones have. Time moves a second at a time, so the next minute's sweep
    // sees it; the sweep deletes them a batch at a time, and new logs are taken between batches.
    cloud.clock.advance(DAY);
    device = await signedInClient(RobotService, cloud.url, part.key);
    let arrivals = 0;
    await eventually(async () => {
      await device.log({ id: part.id, logs: batch(20_000 + arrivals, 1, cloud.clock.now()) });
      arrivals++;
      cloud.clock.advance(1000);
      return (await countLogs(db, part.id)) === 10 + arrivals ? true : undefined;
    }, "the expired entries deleted");
    const app = await signedInClient(AppService, cloud.url, cloud.init.api_key);
    const { logs } = await app.getRobotPartLogs({ id: part.id, limit: 1000n });
    expect(logs.map((l) => l.message)).toContain("entry 10009");
    expect(logs.some((l) => l.message === "entry 3499")).toBe(false);
    expect(cloud.logs.filter((line) => /log entries failed/.test(line))).toEqual([]);
  });
});
