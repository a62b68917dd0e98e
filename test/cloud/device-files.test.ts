// Files parts upload (DataSyncService.FileUpload) and their listing and download (CloudService
// ListFiles / DownloadFile), over real HTTP/2 against svc-cloud in this process. The hostile half:
// another part's key, no token, a stream without its metadata first, a file past the limit, an
// uploader that goes away, a name that tries to be a path, too many uploads at once. Whatever
// fails leaves no file and no row behind.
import { createHash } from "node:crypto";
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { create } from "@bufbuild/protobuf";
import { createClient } from "@connectrpc/connect";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DataSyncService, FileUploadRequestSchema, type FileUploadRequest } from "../../proto/gen/app/datasync/v1/data_sync_pb.js";
import { CloudService } from "../../proto/gen/svc/cloud/v1/cloud_pb.js";
import { MAX_UPLOADS_PER_PART } from "../../targets/cloud/api/device-files.js";
import { createMachine } from "../../targets/cloud/storage/fleet.js";
import { MAX_FILE_BYTES, partFilesDir } from "../../targets/cloud/storage/part-files.js";
import { cloudTransport, signedInClient } from "../helpers/cloud-client.js";
import { startInProcessCloud, type InProcessCloud } from "../helpers/cloud-in-process.js";
import { eventually } from "../helpers/eventually.js";

let cloud: InProcessCloud;
beforeAll(async () => {
  cloud = await startInProcessCloud();
});
afterAll(() => cloud?.stop());

const db = () => cloud.server.context.store.db;
const dataDir = () => cloud.server.context.dataDir;

async function machine(name: string) {
  const made = await createMachine(db(), { locationId: cloud.init.location_id, organizationId: cloud.init.organization_id, name, editedBy: "test", now: cloud.clock.now() });
  return { ...made, sync: await signedInClient(DataSyncService, cloud.url, made.partKey), files: await signedInClient(CloudService, cloud.url, made.partKey) };
}

const metadata = (partId: string, fileName = "diagnostics.tar", fileExtension = ".tar") => create(FileUploadRequestSchema, { uploadPacket: { case: "metadata", value: { partId, fileName, fileExtension } } });
const chunk = (data: Uint8Array) => create(FileUploadRequestSchema, { uploadPacket: { case: "fileContents", value: { data } } });

async function* messages(...list: FileUploadRequest[]) {
  yield* list;
}

/** What a part's folder holds, and the rows listing its files. */
async function kept(partId: string) {
  const dir = partFilesDir(dataDir(), partId);
  const files = existsSync(dir) ? readdirSync(dir) : [];
  const rows = await db().selectFrom("part_files").select("id").where("part_id", "=", partId).execute();
  return { files, rows: rows.length };
}

async function download(client: Awaited<ReturnType<typeof machine>>["files"], partId: string, fileId: string) {
  const parts: Uint8Array[] = [];
  let header;
  for await (const message of client.downloadFile({ partId, fileId })) {
    if (message.file !== undefined) header = message.file;
    else parts.push(message.data);
  }
  return { header, bytes: Buffer.concat(parts) };
}

describe("FileUpload, ListFiles and DownloadFile", () => {
  it("keeps a part's upload whole and gives it back to the part and to its organisation", async () => {
    const m = await machine("uploader");
    const content = Buffer.from("x".repeat(200_000) + "end");
    const answer = await m.sync.fileUpload(messages(metadata(m.partId, "../../../etc/passwd", ".txt"), chunk(content.subarray(0, 100_000)), chunk(content.subarray(100_000))));
    expect(answer.binaryDataId).toMatch(/^[0-9a-f-]{36}$/);
    // The name is kept as written and never used as a path.
    expect((await kept(m.partId)).files).toEqual([answer.binaryDataId]);
    const { files } = await m.files.listFiles({ partId: m.partId });
    expect(files).toHaveLength(1);
    expect(files[0]).toMatchObject({ id: answer.binaryDataId, partId: m.partId, fileName: "../../../etc/passwd", fileExtension: ".txt", size: BigInt(content.length), sha256: createHash("sha256").update(content).digest("hex") });
    const own = await download(m.files, m.partId, answer.binaryDataId);
    expect(own.header?.id).toBe(answer.binaryDataId);
    expect(own.bytes.equals(content)).toBe(true);
    const org = await signedInClient(CloudService, cloud.url, cloud.init.api_key);
    expect((await download(org, m.partId, answer.binaryDataId)).bytes.equals(content)).toBe(true);
  });

  it("refuses another part's key, no token and an unknown file", async () => {
    const a = await machine("files-a");
    const b = await machine("files-b");
    const uploaded = await a.sync.fileUpload(messages(metadata(a.partId), chunk(Buffer.from("secret"))));
    await expect(b.sync.fileUpload(messages(metadata(a.partId), chunk(Buffer.from("planted"))))).rejects.toThrow(/\[not_found\] part .* not found/);
    await expect(b.files.listFiles({ partId: a.partId })).rejects.toThrow(/\[not_found\]/);
    await expect(download(b.files, a.partId, uploaded.binaryDataId)).rejects.toThrow(/\[not_found\]/);
    await expect(download(b.files, b.partId, uploaded.binaryDataId)).rejects.toThrow(/\[not_found\] part .* has no file/);
    const anonymous = createClient(DataSyncService, cloudTransport(cloud.url));
    await expect(anonymous.fileUpload(messages(metadata(a.partId), chunk(Buffer.from("x"))))).rejects.toThrow(/\[unauthenticated\]/);
    expect(await kept(a.partId)).toEqual({ files: [uploaded.binaryDataId], rows: 1 });
    expect(await kept(b.partId)).toEqual({ files: [], rows: 0 });
  });

  it("refuses a stream without its metadata first, or with metadata twice, keeping nothing", async () => {
    const m = await machine("malformed");
    await expect(m.sync.fileUpload(messages(chunk(Buffer.from("no metadata"))))).rejects.toThrow(/\[invalid_argument\] FileUpload: the first message must be the metadata/);
    await expect(m.sync.fileUpload(messages())).rejects.toThrow(/\[invalid_argument\] FileUpload: the first message must be the metadata/);
    await expect(m.sync.fileUpload(messages(metadata(m.partId), chunk(Buffer.from("a")), metadata(m.partId)))).rejects.toThrow(/\[invalid_argument\] FileUpload: after the metadata/);
    await expect(m.sync.fileUpload(messages(metadata(m.partId, "n".repeat(300)), chunk(Buffer.from("a"))))).rejects.toThrow(/\[invalid_argument\] metadata.file_name: at most 255 characters/);
    expect(await kept(m.partId)).toEqual({ files: [], rows: 0 });
  });

  it("refuses a file past the limit with ResourceExhausted, leaving nothing half-written", async () => {
    const m = await machine("oversize");
    const mib = Buffer.alloc(1024 * 1024, 7);
    async function* tooBig() {
      yield metadata(m.partId);
      for (let sent = 0; sent <= MAX_FILE_BYTES; sent += mib.length) yield chunk(mib);
    }
    await expect(m.sync.fileUpload(tooBig())).rejects.toThrow(/\[resource_exhausted\] the file is larger than 67108864 bytes/);
    expect(await kept(m.partId)).toEqual({ files: [], rows: 0 });
  });

  it("keeps nothing of an upload whose client goes away mid-stream", async () => {
    const m = await machine("goes-away");
    const abort = new AbortController();
    let sentSome!: () => void;
    const someSent = new Promise<void>((resolve) => (sentSome = resolve));
    async function* halfway() {
      yield metadata(m.partId);
      yield chunk(Buffer.alloc(64 * 1024, 1));
      sentSome();
      await new Promise(() => undefined);
    }
    const upload = m.sync.fileUpload(halfway(), { signal: abort.signal });
    await someSent;
    const dir = partFilesDir(dataDir(), m.partId);
    await eventually(() => (existsSync(dir) && readdirSync(dir).some((f) => f.endsWith(".partial")) ? true : undefined), "the upload's partial file");
    abort.abort();
    await expect(upload).rejects.toThrow(/canceled|aborted/i);
    await eventually(async () => ((await kept(m.partId)).files.length === 0 ? true : undefined), "the partial file removed");
    expect(await kept(m.partId)).toEqual({ files: [], rows: 0 });
  });

  it("takes uploads at once, each whole, up to the limit per part", async () => {
    const m = await machine("concurrent");
    const releases: (() => void)[] = [];
    const held = (n: number) =>
      (async function* () {
        yield metadata(m.partId, `file-${n}`);
        yield chunk(Buffer.alloc(1000, n));
        await new Promise<void>((resolve) => releases.push(resolve));
        yield chunk(Buffer.alloc(1000, n));
      })();
    const uploads = Array.from({ length: MAX_UPLOADS_PER_PART }, (_, n) => m.sync.fileUpload(held(n)));
    await eventually(() => (releases.length === MAX_UPLOADS_PER_PART ? true : undefined), "every upload open");
    await eventually(() => (readdirSync(partFilesDir(dataDir(), m.partId)).length === MAX_UPLOADS_PER_PART ? true : undefined), "every upload writing");
    await expect(m.sync.fileUpload(messages(metadata(m.partId, "one-too-many"), chunk(Buffer.from("x"))))).rejects.toThrow(/\[resource_exhausted\] part .* already has 4 uploads open/);
    for (const release of releases) release();
    const answers = await Promise.all(uploads);
    const { files } = await m.files.listFiles({ partId: m.partId });
    expect(files.map((f) => f.fileName).sort()).toEqual(["file-0", "file-1", "file-2", "file-3"]);
    for (const [n, answer] of answers.entries()) {
      expect((await download(m.files, m.partId, answer.binaryDataId)).bytes.equals(Buffer.alloc(2000, n))).toBe(true);
    }
  });
});
