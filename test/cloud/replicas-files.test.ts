// svc-cloud replicas on one real PostgreSQL keep files in the database, so that every replica
// serves every file: two real svc-cloud processes (A and B), each with a data folder of its own. A
// file a machine uploads through A is listed and downloaded byte for byte through B, and no data
// folder holds it; a backup (pg_dump) carries it, and a replica on the restored database serves it;
// a release `svc-cloud release add` imports from an operator's own folder is served by both (and
// its bytes, if lost, come back with the next import). An upload whose connection is cut mid-way,
// or whose replica is killed mid-way, leaves nothing listed, no row, and nothing in the data
// folder; and a transaction that kept a file's bytes and then failed leaves no row of them.
import { createHash, randomBytes } from "node:crypto";
import { existsSync, readdirSync, readlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { create } from "@bufbuild/protobuf";
import type { Client } from "@connectrpc/connect";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DataSyncService, FileUploadRequestSchema, type FileUploadRequest } from "../../proto/gen/app/datasync/v1/data_sync_pb.js";
import { CloudService } from "../../proto/gen/svc/cloud/v1/cloud_pb.js";
import { fileStoreOf } from "../../targets/cloud/storage/file-store-of.js";
import { openStore, type Store } from "../../targets/cloud/storage/open-store.js";
import { signedInClient } from "../helpers/cloud-client.js";
import { runCloud, type CloudProcess, type InitResult } from "../helpers/cloud-process.js";
import { eventually } from "../helpers/eventually.js";
import { postgresReplicas } from "../helpers/postgres-replicas.js";
import { startTcpBalancer } from "../helpers/tcp-balancer.js";

const MIB = 1024 * 1024;
const sha256 = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");

const postgres = postgresReplicas();
const { folder } = postgres;
let database: string;
let init: InitResult;
let store: Store;
let a: CloudProcess;
let b: CloudProcess;

/** Another replica, on the database the file's replicas serve unless told otherwise. */
const serve = (on = database, dataDir?: string) => postgres.serve(on, init, dataDir);

beforeAll(async () => {
  ({ database, init, clouds: [a, b] } = await postgres.replicas(2));
  store = await openStore(folder(), database);
}, 120_000);
// vitest runs afterAll hooks last registered first: this one, registered after postgresReplicas(),
// closes the store before the replicas stop and the server goes.
afterAll(async () => {
  await store?.close();
});

const metadata = (partId: string) => create(FileUploadRequestSchema, { uploadPacket: { case: "metadata", value: { partId, fileName: "capture.bin", fileExtension: ".bin" } } });
const chunk = (data: Uint8Array) => create(FileUploadRequestSchema, { uploadPacket: { case: "fileContents", value: { data } } });

async function* uploadOf(partId: string, content: Buffer, pieceBytes = 256 * 1024): AsyncGenerator<FileUploadRequest> {
  yield metadata(partId);
  for (let at = 0; at < content.length; at += pieceBytes) yield chunk(content.subarray(at, at + pieceBytes));
}

async function* piecesOf(content: Buffer): AsyncGenerator<Uint8Array> {
  for (let at = 0; at < content.length; at += 100_000) yield content.subarray(at, at + 100_000);
}

/** An upload that sends its metadata and a MiB, then waits for ever. */
async function* stuckUpload(partId: string): AsyncGenerator<FileUploadRequest> {
  yield metadata(partId);
  yield chunk(randomBytes(MIB));
  await new Promise(() => undefined);
}

async function download(client: Client<typeof CloudService>, partId: string, fileId: string): Promise<Buffer> {
  const pieces: Uint8Array[] = [];
  for await (const message of client.downloadFile({ partId, fileId })) if (message.file === undefined) pieces.push(message.data);
  return Buffer.concat(pieces);
}

/** The part's rows listing files, and the database's rows of file bytes under the part. */
async function rowsOf(partId: string): Promise<{ files: number; blobs: number }> {
  const files = await store.db.selectFrom("part_files").select((eb) => eb.fn.countAll().as("n")).where("part_id", "=", partId).executeTakeFirstOrThrow();
  const blobs = await store.db.selectFrom("file_blobs").select((eb) => eb.fn.countAll().as("n")).where("blob_id", "like", `files/${partId}/%`).executeTakeFirstOrThrow();
  return { files: Number(files.n), blobs: Number(blobs.n) };
}

/** The spool files `cloud` holds open (unlinked, so only its open handles show them). */
function spooling(cloud: CloudProcess): string[] {
  const fds = `/proc/${cloud.child.pid}/fd`;
  const spool = `${join(cloud.dataDir, "spool")}/`;
  const open: string[] = [];
  for (const fd of existsSync(fds) ? readdirSync(fds) : []) {
    try {
      const target = readlinkSync(join(fds, fd));
      if (target.startsWith(spool)) open.push(target);
    } catch {
      // Closed while looked at.
    }
  }
  return open;
}

/** What the data folder holds of files: uploads, releases, and the spool's entries. */
function filesIn(dataDir: string): string[] {
  const spool = join(dataDir, "spool");
  return [...["files", "releases"].filter((name) => existsSync(join(dataDir, name))), ...(existsSync(spool) ? readdirSync(spool) : [])];
}

async function listedOn(cloud: CloudProcess, partId: string): Promise<string[]> {
  const files = await signedInClient(CloudService, cloud.url, init.api_key);
  return (await files.listFiles({ partId })).files.map((f) => f.id);
}

describe("svc-cloud replicas on PostgreSQL", () => {
  it("list and serve, through one replica, a file uploaded through another, whole, from the database", async () => {
    const machine = a.createMachine("uploader");
    const partId = machine.cloud.id;
    const content = randomBytes(2 * MIB + MIB / 2 + 3);
    const sync = await signedInClient(DataSyncService, a.url, machine.cloud.api_key);
    const { fileId } = await sync.fileUpload(uploadOf(partId, content));

    const own = await signedInClient(CloudService, b.url, machine.cloud.api_key);
    const { files } = await own.listFiles({ partId });
    expect(files.map((f) => ({ id: f.id, size: f.size, sha256: f.sha256 }))).toEqual([{ id: fileId, size: BigInt(content.length), sha256: sha256(content) }]);
    expect((await download(own, partId, fileId)).equals(content)).toBe(true);
    const org = await signedInClient(CloudService, b.url, init.api_key);
    expect((await download(org, partId, fileId)).equals(content)).toBe(true);
    // In rows of 1 MiB, and in no data folder.
    expect(await rowsOf(partId)).toEqual({ files: 1, blobs: 3 });
    for (const cloud of [a, b]) expect(filesIn(cloud.dataDir)).toEqual([]);
  });

  it("carry files in a backup: a replica on the database it is restored into serves them", async () => {
    const machine = b.createMachine("backed-up");
    const partId = machine.cloud.id;
    const content = randomBytes(MIB + 17);
    const sync = await signedInClient(DataSyncService, b.url, machine.cloud.api_key);
    const { fileId } = await sync.fileUpload(uploadOf(partId, content));
    const backup = join(folder(), "fleet.dump");
    const backedUp = a.run(["backup", backup]);
    expect(backedUp.status, backedUp.stderr).toBe(0);

    const other = await postgres.server.createDatabase();
    const restored = runCloud(["restore", backup], folder(), other);
    expect(restored.status, restored.stderr).toBe(0);
    const elsewhere = await serve(other);
    const org = await signedInClient(CloudService, elsewhere.url, init.api_key);
    expect((await download(org, partId, fileId)).equals(content)).toBe(true);
  });

  it("serve through every replica a release `release add` imported from another folder", async () => {
    const packages = folder();
    const serverArtifact = { file: "svc-server-2.0.0-linux-amd64.tar.gz", bytes: randomBytes(MIB + 12_345) };
    const agentArtifact = { file: "svc-agent-2.0.0-linux-amd64.tar.gz", bytes: randomBytes(4_321) };
    const entry = ({ file, bytes }: typeof serverArtifact) => ({ channels: { stable: "2.0.0" }, versions: { "2.0.0": { "linux/amd64": { url: file, sha256: sha256(bytes), size: bytes.length } } } });
    for (const { file, bytes } of [serverArtifact, agentArtifact]) writeFileSync(join(packages, file), bytes);
    writeFileSync(join(packages, "index.json"), JSON.stringify({ "svc-server": entry(serverArtifact), agent: entry(agentArtifact) }));

    const operator = folder();
    const added = runCloud(["release", "add", packages], operator, database);
    expect(added.status, added.stderr).toBe(0);
    expect(JSON.parse(added.stdout).imported.map((i: { new: boolean }) => i.new)).toEqual([true, true]);
    expect(filesIn(operator)).toEqual([]);

    for (const cloud of [a, b]) {
      for (const { file, bytes } of [serverArtifact, agentArtifact]) {
        const response = await fetch(`${cloud.url}/releases/${file}`);
        expect(response.status).toBe(200);
        expect(response.headers.get("x-checksum-sha256")).toBe(sha256(bytes));
        expect(Buffer.from(await response.arrayBuffer()).equals(bytes)).toBe(true);
      }
      expect(filesIn(cloud.dataDir)).toEqual([]);
    }
    const again = runCloud(["release", "add", packages], folder(), database);
    expect(JSON.parse(again.stdout).imported.map((i: { new: boolean }) => i.new)).toEqual([false, false]);

    // Bytes lost behind svc-cloud's back are not served as the release, and importing it again brings them back.
    await store.db.deleteFrom("file_blobs").where("blob_id", "=", `releases/${serverArtifact.file}`).execute();
    expect((await fetch(`${b.url}/releases/${serverArtifact.file}`)).status).toBe(500);
    expect(runCloud(["release", "add", packages], folder(), database).status).toBe(0);
    expect(Buffer.from(await (await fetch(`${b.url}/releases/${serverArtifact.file}`)).arrayBuffer()).equals(serverArtifact.bytes)).toBe(true);
  });

  it("keep nothing of an upload whose connection is cut mid-way", async () => {
    const machine = a.createMachine("cut-off");
    const partId = machine.cloud.id;
    const balancer = await startTcpBalancer([Number(new URL(a.url).port)]);
    const sync = await signedInClient(DataSyncService, balancer.url, machine.cloud.api_key);
    const upload = sync.fileUpload(stuckUpload(partId)).then(
      () => "answered",
      () => "failed",
    );
    await eventually(() => (spooling(a).length > 0 ? true : undefined), "the upload under way on A");
    await balancer.close();
    expect(await upload).toBe("failed");

    await eventually(() => (spooling(a).length === 0 ? true : undefined), "A letting the upload go");
    expect(await rowsOf(partId)).toEqual({ files: 0, blobs: 0 });
    for (const cloud of [a, b]) expect(await listedOn(cloud, partId)).toEqual([]);
    expect(filesIn(a.dataDir)).toEqual([]);
  });

  it("keep nothing of an upload whose replica is killed mid-way", async () => {
    const c = await serve();
    const machine = c.createMachine("crashed-under");
    const partId = machine.cloud.id;
    const sync = await signedInClient(DataSyncService, c.url, machine.cloud.api_key);
    const upload = sync.fileUpload(stuckUpload(partId)).then(
      () => "answered",
      () => "failed",
    );
    // Its spool file open and already unlinked: the bytes are flowing (see the sweep at start for a
    // process ended between the two).
    await eventually(() => (spooling(c).some((target) => target.endsWith(" (deleted)")) ? true : undefined), "the upload under way on C");
    const exited = new Promise((resolve) => c.child.once("exit", resolve));
    c.child.kill("SIGKILL");
    await exited;
    expect(await upload).toBe("failed");

    const again = await serve(database, c.dataDir);
    expect(again.stderr()).not.toMatch(/removed \d+ file/);
    expect(await rowsOf(partId)).toEqual({ files: 0, blobs: 0 });
    for (const cloud of [again, b]) expect(await listedOn(cloud, partId)).toEqual([]);
    expect(filesIn(c.dataDir)).toEqual([]);
  });

  it("keep no row of a file whose bytes were kept by a transaction that then failed", async () => {
    const files = fileStoreOf(store, folder());
    const key = "files/no-part/rolled-back";
    const staged = await files.stage(key, piecesOf(randomBytes(2 * MIB + 1)));
    const kept = store.db.transaction().execute(async (tx) => {
      await staged.keep(tx);
      const rows = await tx.selectFrom("file_blobs").select("seq").where("blob_id", "=", key).execute();
      expect(rows).toHaveLength(3);
      throw new Error("the row listing it was refused");
    });
    await expect(kept).rejects.toThrow(/the row listing it was refused/);
    await staged.abandon();
    expect(await store.db.selectFrom("file_blobs").select("seq").where("blob_id", "=", key).execute()).toEqual([]);
    expect(await files.size(key)).toBeUndefined();
  });
});
