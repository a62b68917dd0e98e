// A part's status in svc-cloud: its machine reports the revision it runs and the one it refused
// with the reason (ReportConfigStatus), its agent the versions it runs and has installed
// (DeviceAgentConfig), and a person reads both with GetPartStatus. The hostile half: a person or
// organisation key cannot report for a machine, another part's key cannot report for this one, a
// part's key cannot read the status, an over-long revision is refused and an over-long reason cut.
import { Code, ConnectError } from "@connectrpc/connect";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AgentDeviceService } from "../../proto/gen/app/agent/v1/agent_pb.js";
import { CloudService } from "../../proto/gen/svc/cloud/v1/cloud_pb.js";
import { MAX_REPORTED_REASON } from "../../targets/cloud/api/part-status.js";
import { createMachine } from "../../targets/cloud/storage/fleet.js";
import { signedInClient } from "../helpers/cloud-client.js";
import { startInProcessCloud, type InProcessCloud } from "../helpers/cloud-in-process.js";

let cloud: InProcessCloud;
beforeAll(async () => {
  cloud = await startInProcessCloud();
});
afterAll(() => cloud?.stop());

async function machine(name: string) {
  const db = cloud.server.context.store.db;
  const made = await createMachine(db, { locationId: cloud.init.location_id, organizationId: cloud.init.organization_id, name, editedBy: "test", now: cloud.clock.now() });
  return { ...made, device: await signedInClient(CloudService, cloud.url, made.partKey), agent: await signedInClient(AgentDeviceService, cloud.url, made.partKey) };
}

const codeOf = (promise: Promise<unknown>) => promise.then(() => "ok", (thrown) => Code[ConnectError.from(thrown).code]);

describe("a part's status", () => {
  it("says what the machine runs, what it refused and why, and what its agent runs and installed", async () => {
    const m = await machine("rover");
    const owner = await signedInClient(CloudService, cloud.url, cloud.init.api_key);
    const before = await owner.getPartStatus({ partId: m.partId });
    expect(before).toMatchObject({ revision: "1", runningRevision: "", refusedRevision: "", svcServer: "" });
    expect(before.lastAccess).toBeUndefined();

    await m.agent.deviceAgentConfig({
      id: m.partId,
      hostInfo: { platform: "linux/arm64", distro: "debian:12" },
      versionInfo: { agentRunning: "1.0.0", agentInstalled: "1.0.0", viamServerRunning: "1.0.0", viamServerInstalled: "1.1.0" },
    });
    await m.device.reportConfigStatus({ partId: m.partId, runningRevision: "1", refusedRevision: "2", refusedReason: "components[0].model: unknown model" });
    const after = await owner.getPartStatus({ partId: m.partId });
    expect(after).toMatchObject({
      svcServer: "1.0.0",
      svcServerInstalled: "1.1.0",
      svcAgent: "1.0.0",
      svcAgentInstalled: "1.0.0",
      os: "debian:12",
      platform: "linux/arm64",
      runningRevision: "1",
      refusedRevision: "2",
      refusedReason: "components[0].model: unknown model",
    });
    expect(after.lastAccess).toBeDefined();
    expect(after.configReportedAt).toBeDefined();

    // The next report replaces it: the machine took a newer revision.
    await m.device.reportConfigStatus({ partId: m.partId, runningRevision: "3", refusedRevision: "", refusedReason: "" });
    expect(await owner.getPartStatus({ partId: m.partId })).toMatchObject({ runningRevision: "3", refusedRevision: "", refusedReason: "" });
  });

  it("takes reports from the part's own key only, and shows them to people only", async () => {
    const m = await machine("crane");
    const other = await machine("dredger");
    const owner = await signedInClient(CloudService, cloud.url, cloud.init.api_key);
    const report = { partId: m.partId, runningRevision: "1", refusedRevision: "", refusedReason: "" };
    expect(await codeOf(owner.reportConfigStatus(report))).toBe("PermissionDenied");
    expect(await codeOf(other.device.reportConfigStatus(report))).toBe("NotFound");
    expect(await codeOf(m.device.getPartStatus({ partId: m.partId }))).toBe("PermissionDenied");
    expect(await codeOf(owner.getPartStatus({ partId: "no-such-part" }))).toBe("NotFound");
    expect(await codeOf(owner.getPartStatus({ partId: "" }))).toBe("InvalidArgument");
  });

  it("refuses an over-long revision or a reason without a revision, and cuts an over-long reason", async () => {
    const m = await machine("lander");
    const owner = await signedInClient(CloudService, cloud.url, cloud.init.api_key);
    const refused = await m.device.reportConfigStatus({ partId: m.partId, runningRevision: "x".repeat(65), refusedRevision: "", refusedReason: "" }).catch((thrown) => ConnectError.from(thrown));
    expect(refused).toBeInstanceOf(ConnectError);
    expect((refused as ConnectError).rawMessage).toMatch(/^running_revision: at most 64 characters/);
    expect(await codeOf(m.device.reportConfigStatus({ partId: m.partId, runningRevision: "1", refusedRevision: "", refusedReason: "why" }))).toBe("InvalidArgument");

    await m.device.reportConfigStatus({ partId: m.partId, runningRevision: "1", refusedRevision: "2", refusedReason: "y".repeat(100_000) });
    const status = await owner.getPartStatus({ partId: m.partId });
    expect(status.refusedReason).toHaveLength(MAX_REPORTED_REASON);
    expect(status.refusedReason.endsWith("(cut)")).toBe(true);
  });
});
