// svc-cloud killed in the middle of an upload (SIGKILL, as a crash or a power cut would): the
// uploader was never told it succeeded, and at the next start the half-written file is removed,
// said so in the log, while the files uploaded whole before stay listed and readable; a release
// import cut short the same way leaves a `.partial` copy, removed too.
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { create } from "@bufbuild/protobuf";
import { afterAll, describe, expect, it } from "vitest";
import { DataSyncService, FileUploadRequestSchema, type FileUploadRequest } from "../../proto/gen/app/datasync/v1/data_sync_pb.js";
import { CloudService } from "../../proto/gen/svc/cloud/v1/cloud_pb.js";
import { partFilesDir } from "../../targets/cloud/storage/part-files.js";
import { signedInClient } from "../helpers/cloud-client.js";
import { runCloud, startCloud, type CloudProcess, type InitResult } from "../helpers/cloud-process.js";
import { eventually } from "../helpers/eventually.js";

const dataDir = mkdtempSync(join(tmpdir(), "svc-cloud-crash-"));
let cloud: CloudProcess | undefined;
afterAll(async () => {
  await cloud?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

const metadata = (partId: string) => create(FileUploadRequestSchema, { uploadPacket: { case: "metadata", value: { partId, fileName: "diagnostics.tar", fileExtension: ".tar" } } });
const chunk = (data: Uint8Array) => create(FileUploadRequestSchema, { uploadPacket: { case: "fileContents", value: { data } } });

describe("an upload cut short by a crash", () => {
  it("leaves nothing behind after the next start, and the whole files stay", async () => {
    const init = JSON.parse(runCloud(["init"], dataDir).stdout) as InitResult;
    cloud = await startCloud({ reuse: { dataDir, init } });
    const machine = cloud.createMachine("uploader");
    const partId = machine.cloud.id;
    const sync = await signedInClient(DataSyncService, cloud.url, machine.cloud.api_key);
    const whole = await sync.fileUpload(
      (async function* () {
        yield metadata(partId);
        yield chunk(Buffer.from("whole"));
      })(),
    );

    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    const stuck = sync
      .fileUpload(
        (async function* (): AsyncGenerator<FileUploadRequest> {
          yield metadata(partId);
          yield chunk(Buffer.alloc(64 * 1024, 1));
          await held;
        })(),
      )
      .catch((thrown: unknown) => thrown);
    const dir = partFilesDir(dataDir, partId);
    await eventually(() => readdirSync(dir).some((name) => name.endsWith(".partial")) || undefined, "the upload under way");
    const killed = new Promise((resolve) => cloud!.child.once("exit", resolve));
    cloud.child.kill("SIGKILL");
    await killed;
    release();
    await stuck;

    // A `release add` cut short the same way left its copy under a `.partial` name.
    const releases = join(dataDir, "releases");
    mkdirSync(releases, { recursive: true });
    writeFileSync(join(releases, "svc-server-1.2.3-linux-arm64.0a1b2c3d.partial"), "cut short");
    cloud = await startCloud({ reuse: { dataDir, init } });
    expect(readdirSync(dir)).toEqual([whole.binaryDataId]);
    expect(readdirSync(releases)).toEqual([]);
    expect(cloud.stderr()).toMatch(/removed 2 file\(s\) left by uploads cut short when svc-cloud last stopped/);
    const files = await signedInClient(CloudService, cloud.url, machine.cloud.api_key);
    expect((await files.listFiles({ partId })).files.map((f) => f.id)).toEqual([whole.binaryDataId]);
  });
});
