// ListMachineSummaries with what the device side records: the versions a part's agent reported
// and when the part was last seen, online for a minute after, then offline. In this process, on a
// clock the test moves.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AppService, OnlineState } from "../../proto/gen/app/v1/app_pb.js";
import { recordReportedVersions } from "../../targets/cloud/storage/reported-versions.js";
import { signedInClient } from "../helpers/cloud-client.js";
import { ONLINE_WINDOW_MS } from "../../targets/cloud/api/app-wire.js";
import { startInProcessCloud, type InProcessCloud } from "../helpers/cloud-in-process.js";

let cloud: InProcessCloud;
beforeAll(async () => {
  cloud = await startInProcessCloud();
});
afterAll(() => cloud?.stop());

describe("machine summaries", () => {
  it("carry each part's reported versions and whether it is online", async () => {
    const app = await signedInClient(AppService, cloud.url, cloud.init.api_key);
    const machineId = (await app.newRobot({ name: "reporter", location: cloud.init.location_id })).id;
    const partId = (await app.getRobotParts({ robotId: machineId })).parts[0]!.id;
    const db = cloud.server.context.store.db;
    await recordReportedVersions(db, partId, { server: "0.9.0", agent: "0.4.1", os: "debian:12", platform: "linux/arm64", reported_at: cloud.clock.now() });

    const summary = async () => (await app.listMachineSummaries({ organizationId: cloud.init.organization_id })).locationSummaries[0]!.machineSummaries[0]!.partSummaries[0]!;
    const online = await summary();
    expect(online).toMatchObject({
      partId,
      isMainPart: true,
      onlineState: OnlineState.ONLINE,
      viamServerVersion: { version: { case: "major", value: "0.9.0" } },
      viamAgentVersion: { version: { case: "major", value: "0.4.1" } },
      os: "debian:12",
      platform: "linux/arm64",
    });
    expect(Number(online.lastOnline!.seconds) * 1000).toBe(cloud.clock.now());

    cloud.clock.advance(ONLINE_WINDOW_MS);
    expect((await summary()).onlineState).toBe(OnlineState.ONLINE);
    cloud.clock.advance(1000);
    const offline = await summary();
    expect([offline.onlineState, offline.secondsSinceOnline]).toEqual([OnlineState.OFFLINE, BigInt(ONLINE_WINDOW_MS / 1000 + 1)]);
    expect((await app.getRobot({ id: machineId })).robot?.onlineState).toBe(OnlineState.OFFLINE);
  });
});
