// The revision-notice stream over real HTTP/2: it opens with the current revision, brings a notice
// when a revision is saved (after which Config answers the new config), repeats the current
// revision as a heartbeat when quiet, ends when the caller's key is revoked, and drops its
// subscription however it ends. Once through the real svc-cloud process, with the edit made by
// the official SDK's calls' wire (AppService.UpdateRobotPart).
import { createClient } from "@connectrpc/connect";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { AppService } from "../../proto/gen/app/v1/app_pb.js";
import { RobotService } from "../../proto/gen/app/v1/robot_pb.js";
import { CloudService, type RevisionNotice } from "../../proto/gen/svc/cloud/v1/cloud_pb.js";
import { LAST_ACCESS_RESOLUTION_MS } from "../../targets/cloud/storage/device-store.js";
import { WATCH_HEARTBEAT_MS } from "../../targets/cloud/api/device-watch-revisions.js";
import { revokeApiKey } from "../../targets/cloud/storage/api-keys.js";
import { createMachine } from "../../targets/cloud/storage/fleet.js";
import { saveRevision } from "../../targets/cloud/storage/revisions.js";
import { cloudTransport, signedInClient } from "../helpers/cloud-client.js";
import { startInProcessCloud, type InProcessCloud } from "../helpers/cloud-in-process.js";
import { startCloud, type CloudProcess } from "../helpers/cloud-process.js";
import { eventually } from "../helpers/eventually.js";

/** Waits until `check` stops throwing. */
function until(what: string, check: () => void): Promise<true> {
  return eventually(() => {
    check();
    return true as const;
  }, what);
}

/** A stream read in the background: what arrived so far, and how it ended. */
function reader(stream: AsyncIterable<RevisionNotice>) {
  const notices: RevisionNotice[] = [];
  const ended = (async () => {
    try {
      for await (const notice of stream) notices.push(notice);
      return "completed";
    } catch (thrown) {
      return String((thrown as Error).message);
    }
  })();
  return { notices, ended };
}

describe("WatchRevisions, in this process", () => {
  let cloud: InProcessCloud;
  const aborts: AbortController[] = [];
  beforeAll(async () => {
    cloud = await startInProcessCloud();
  });
  afterEach(async () => {
    for (const abort of aborts.splice(0)) abort.abort();
    // However a test's streams ended, none is left subscribed.
    await until("no stream subscribed", () => expect(bus().listeners()).toBe(0));
  });
  afterAll(() => cloud?.stop());

  const db = () => cloud.server.context.store.db;
  const bus = () => cloud.server.context.revisions;

  async function watched(name: string) {
    const made = await createMachine(db(), { locationId: cloud.init.location_id, organizationId: cloud.init.organization_id, name, editedBy: "test", now: cloud.clock.now() });
    const watch = await signedInClient(CloudService, cloud.url, made.partKey);
    const robot = await signedInClient(RobotService, cloud.url, made.partKey);
    const abort = new AbortController();
    aborts.push(abort);
    const stream = reader(watch.watchRevisions({ partId: made.partId }, { signal: abort.signal }));
    return { ...made, robot, abort, stream };
  }

  async function edit(partId: string, config: Record<string, unknown>) {
    cloud.clock.advance(10);
    const saved = await saveRevision(db(), { partId, config, editedBy: "test", now: cloud.clock.now() });
    bus().publish(saved);
    return saved;
  }

  it("opens with the current revision, then brings each new one; Config answers it", async () => {
    const m = await watched("watcher");
    await until("the opening notice", () => expect(m.stream.notices.map((n) => n.revision)).toEqual(["1"]));
    expect(m.stream.notices[0]).toMatchObject({ partId: m.partId });
    const second = await edit(m.partId, { components: [{ name: "s1", api: "rdk:component:sensor", model: "fake" }] });
    await until("the notice of revision 2", () => expect(m.stream.notices.map((n) => n.revision)).toEqual(["1", "2"]));
    const { config } = await m.robot.config({ id: m.partId });
    expect(config?.revision).toBe("2");
    expect(config?.components.map((c) => c.name)).toEqual(["s1"]);
    // Published twice, told once.
    bus().publish(second);
    await edit(m.partId, {});
    await until("the notice of revision 3 only", () => expect(m.stream.notices.map((n) => n.revision)).toEqual(["1", "2", "3"]));
  });

  it("drops its subscription when the client goes away", async () => {
    const m = await watched("goes-away");
    await until("the opening notice", () => expect(m.stream.notices).toHaveLength(1));
    expect(bus().listeners()).toBe(1);
    m.abort.abort();
    expect(await m.stream.ended).toMatch(/canceled|aborted/i);
    await until("no stream subscribed", () => expect(bus().listeners()).toBe(0));
  });

  it("repeats the current revision when quiet, and ends once the key is revoked", async () => {
    const m = await watched("heartbeat");
    await until("the opening notice", () => expect(m.stream.notices).toHaveLength(1));
    cloud.clock.advance(WATCH_HEARTBEAT_MS);
    await until("the heartbeat", () => expect(m.stream.notices.map((n) => n.revision)).toEqual(["1", "1"]));
    await revokeApiKey(db(), m.partKey.id, cloud.clock.now());
    cloud.clock.advance(WATCH_HEARTBEAT_MS);
    expect(await m.stream.ended).toMatch(/\[unauthenticated\] the API key of this token was revoked/);
    await until("no stream subscribed", () => expect(bus().listeners()).toBe(0));
  });

  it("keeps a machine that only listens counted as seen: each heartbeat is an access", async () => {
    const m = await watched("listener");
    await until("the opening notice", () => expect(m.stream.notices).toHaveLength(1));
    const lastAccess = async () => Number((await db().selectFrom("parts").select("last_access").where("id", "=", m.partId).executeTakeFirstOrThrow()).last_access);
    const opened = await lastAccess();
    for (let beat = 2; beat <= 6; beat++) {
      cloud.clock.advance(WATCH_HEARTBEAT_MS);
      await until(`heartbeat ${beat}`, () => expect(m.stream.notices).toHaveLength(beat));
    }
    // Five heartbeats, 75 s: written again once the minute of resolution had passed.
    await eventually(async () => ((await lastAccess()) > opened ? true : undefined), "last_access to move");
    expect(cloud.clock.now() - (await lastAccess())).toBeLessThan(LAST_ACCESS_RESOLUTION_MS);
  });

  it("refuses no token and another part's key before subscribing", async () => {
    const a = await watched("watched-a");
    const b = await createMachine(db(), { locationId: cloud.init.location_id, organizationId: cloud.init.organization_id, name: "watcher-b", editedBy: "test", now: cloud.clock.now() });
    await until("the opening notice", () => expect(a.stream.notices).toHaveLength(1));
    const asB = await signedInClient(CloudService, cloud.url, b.partKey);
    expect(await reader(asB.watchRevisions({ partId: a.partId })).ended).toMatch(/\[not_found\] part .* not found/);
    const anonymous = createClient(CloudService, cloudTransport(cloud.url));
    expect(await reader(anonymous.watchRevisions({ partId: a.partId })).ended).toMatch(/\[unauthenticated\]/);
    expect(bus().listeners()).toBe(1);
  });
});

describe("WatchRevisions, through the real svc-cloud", () => {
  let cloud: CloudProcess;
  beforeAll(async () => {
    cloud = await startCloud();
  });
  afterAll(() => cloud?.stop());

  it("brings an edit made through AppService to the machine, whose Config then answers it", async () => {
    const machine = cloud.createMachine("real-watcher");
    const partId = machine.cloud.id;
    const watch = await signedInClient(CloudService, cloud.url, machine.cloud.api_key);
    const robot = await signedInClient(RobotService, cloud.url, machine.cloud.api_key);
    const app = await signedInClient(AppService, cloud.url, cloud.init.api_key);
    const abort = new AbortController();
    const stream = reader(watch.watchRevisions({ partId }, { signal: abort.signal }));
    try {
      await until("the opening notice", () => expect(stream.notices.map((n) => n.revision)).toEqual(["1"]));
      await app.updateRobotPart({ id: partId, name: "real-watcher-main", robotConfig: { components: [{ name: "pushed", api: "rdk:component:generic", model: "fake" }] } });
      await until("the notice of the edit", () => expect(stream.notices.map((n) => n.revision)).toEqual(["1", "2"]));
      const { config } = await robot.config({ id: partId });
      expect(config?.revision).toBe("2");
      expect(config?.components.map((c) => c.name)).toEqual(["pushed"]);
    } finally {
      abort.abort();
      await stream.ended;
    }
  });
});
