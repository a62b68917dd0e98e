// A log tail that hears nothing says so: after TAIL_HEARTBEAT_MS without entries it sends an empty
// batch (a connection that died unseen then fails its write and the tail ends), and it checks the
// caller again then, so the tail of a key revoked since it opened ends. Time is moved by the test.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AppService } from "../../proto/gen/app/v1/app_pb.js";
import { TAIL_HEARTBEAT_MS } from "../../targets/cloud/api/logs-app.js";
import { createApiKey, revokeApiKey } from "../../targets/cloud/storage/api-keys.js";
import { createMachine } from "../../targets/cloud/storage/fleet.js";
import { signedInClient } from "../helpers/cloud-client.js";
import { startInProcessCloud, type InProcessCloud } from "../helpers/cloud-in-process.js";
import { eventually } from "../helpers/eventually.js";

let cloud: InProcessCloud;
beforeAll(async () => {
  cloud = await startInProcessCloud();
});
afterAll(() => cloud?.stop());

describe("a quiet log tail", () => {
  it("sends an empty batch when quiet, and ends once the caller's key is revoked", async () => {
    const db = cloud.server.context.store.db;
    const now = cloud.clock.now();
    const part = await createMachine(db, { locationId: cloud.init.location_id, organizationId: cloud.init.organization_id, name: "quiet", editedBy: "test", now });
    const key = await createApiKey(db, { organizationId: cloud.init.organization_id, name: "dashboard", scope: "organization", scopeId: cloud.init.organization_id, now });
    const app = await signedInClient(AppService, cloud.url, { id: key.id, key: key.key });
    const batches: number[] = [];
    const ended = (async () => {
      try {
        for await (const batch of app.tailRobotPartLogs({ id: part.partId })) batches.push(batch.logs.length);
        return "completed";
      } catch (thrown) {
        return (thrown as Error).message;
      }
    })();
    await eventually(() => batches.length === 1 || undefined, "the opening batch");
    cloud.clock.advance(TAIL_HEARTBEAT_MS);
    await eventually(() => batches.length === 2 || undefined, "the heartbeat");
    expect(batches).toEqual([0, 0]);
    await revokeApiKey(db, key.id, cloud.clock.now());
    cloud.clock.advance(TAIL_HEARTBEAT_MS);
    expect(await ended).toMatch(/\[unauthenticated\] the API key of this token was revoked/);
    expect(batches).toEqual([0, 0]);
    await eventually(() => cloud.server.context.logs.listeners() === 0 || undefined, "the tail's subscription dropped");
  });
});
