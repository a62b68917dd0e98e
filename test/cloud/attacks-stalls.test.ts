// Clients that start something and then stop, against svc-cloud in this process on a clock the
// test moves: an upload that stops sending after its metadata, or sends nothing at all, is ended
// after UPLOAD_IDLE_MS of silence, keeps nothing, and gives its place back to the part. The
// port's own real-time limit on a silent body (attacks-slow-requests.test.ts) is set far off here, so on a
// slow machine it does not end the uploads before the clock does.
import { existsSync, readdirSync } from "node:fs";
import { create } from "@bufbuild/protobuf";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DataSyncService, FileUploadRequestSchema, type FileUploadRequest } from "../../proto/gen/app/datasync/v1/data_sync_pb.js";
import { MAX_UPLOADS_PER_PART, UPLOAD_IDLE_MS } from "../../targets/cloud/api/device-files.js";
import { createMachine } from "../../targets/cloud/storage/fleet.js";
import { partFilesDir } from "../../targets/cloud/storage/part-files.js";
import { signedInClient } from "../helpers/cloud-client.js";
import { startInProcessCloud, type InProcessCloud } from "../helpers/cloud-in-process.js";
import { eventually } from "../helpers/eventually.js";

let cloud: InProcessCloud;
beforeAll(async () => {
  cloud = await startInProcessCloud({ bodyStallMs: 10 * 60_000 });
});
afterAll(() => cloud?.stop());

const db = () => cloud.server.context.store.db;

async function machine(name: string) {
  const made = await createMachine(db(), { locationId: cloud.init.location_id, organizationId: cloud.init.organization_id, name, editedBy: "test", now: cloud.clock.now() });
  return { ...made, sync: await signedInClient(DataSyncService, cloud.url, made.partKey) };
}

const metadata = (partId: string) => create(FileUploadRequestSchema, { uploadPacket: { case: "metadata", value: { partId, fileName: "stalled.tar", fileExtension: ".tar" } } });
const chunk = (data: Uint8Array) => create(FileUploadRequestSchema, { uploadPacket: { case: "fileContents", value: { data } } });

/** Sends `first`, then nothing more, never ending its side of the stream. */
async function* thenSilence(...first: FileUploadRequest[]) {
  yield* first;
  await new Promise(() => undefined);
}

const outcome = (call: Promise<unknown>) => call.then(() => "answered", (thrown: unknown) => String(thrown));

describe("an upload that stops sending", () => {
  it("is ended after UPLOAD_IDLE_MS of silence, keeps nothing, and gives its place back", async () => {
    const m = await machine("stalled");
    const stalled = Array.from({ length: MAX_UPLOADS_PER_PART }, () => outcome(m.sync.fileUpload(thenSilence(metadata(m.partId), chunk(Buffer.alloc(1000, 1))))));
    const silent = outcome(m.sync.fileUpload(thenSilence()));
    const dir = partFilesDir(cloud.server.context.dataDir, m.partId);
    await eventually(() => (existsSync(dir) && readdirSync(dir).length === MAX_UPLOADS_PER_PART ? true : undefined), "every stalled upload's partial file");

    cloud.clock.advance(UPLOAD_IDLE_MS);
    for (const ended of [...stalled, silent]) expect(await ended).toMatch(/\[deadline_exceeded\] FileUpload: nothing received for 60 s/);
    await eventually(() => (readdirSync(dir).length === 0 ? true : undefined), "the partial files removed");

    const whole = await m.sync.fileUpload((async function* () {
      yield metadata(m.partId);
      yield chunk(Buffer.from("after the stall"));
    })());
    expect(whole.fileId).not.toBe("");
  });
});
