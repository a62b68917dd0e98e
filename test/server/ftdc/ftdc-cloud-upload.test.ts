// A cloud-managed svc-server sends its closed FTDC files to the real svc-cloud as files of its
// part, signed in with the part's key, each once: a file a run closed goes at the next start,
// byte for byte; files that could not go while svc-cloud was stopped go once it is back; a
// restart sends none twice. Real processes on loopback.
import { createHash } from "node:crypto";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CloudService } from "../../../proto/gen/svc/cloud/v1/cloud_pb.js";
import { signedInClient } from "../../helpers/cloud-client.js";
import { cloudManagedMachine, type CloudManaged } from "../../helpers/cloud-managed.js";
import { runCloud, startCloud, type CloudProcess, type InitResult } from "../../helpers/cloud-process.js";
import { eventually } from "../../helpers/eventually.js";
import { freePort } from "../../helpers/free-port.js";
import type { SvcServerProcess } from "../../helpers/svc-server-process.js";

const work = mkdtempSync(join(tmpdir(), "svc-ftdc-upload-"));
const dataDir = join(work, "cloud");
const ftdcDir = join(work, "diagnostics.data");
let init: InitResult;
let port: number;
let cloud: CloudProcess;
let machine: CloudManaged | undefined;
const servers: SvcServerProcess[] = [];

/** svc-cloud on the same folder and port each time, so the machine's credentials stay right. */
const startSameCloud = () => startCloud({ reuse: { dataDir, init }, args: ["--listen", `localhost:${port}`] });

beforeAll(async () => {
  init = JSON.parse(runCloud(["init"], dataDir).stdout) as InitResult;
  port = await freePort();
  cloud = await startSameCloud();
});
afterAll(async () => {
  for (const server of servers) await server.stop();
  machine?.remove();
  await cloud?.stop();
  rmSync(work, { recursive: true, force: true });
});

const localFiles = () => (existsSync(ftdcDir) ? readdirSync(ftdcDir).filter((f) => f.endsWith(".ftdc")).sort() : []);
const sha256 = (file: string) => createHash("sha256").update(readFileSync(join(ftdcDir, file))).digest("hex");

/** Starts the machine and waits for the FTDC file it begins: the file it writes until stopped. */
async function runUntilRecorded(): Promise<string> {
  const before = new Set(localFiles());
  const server = await machine!.start({ args: ["-ftdc-dir", ftdcDir] });
  servers.push(server);
  return eventually(() => localFiles().find((f) => !before.has(f)), "a new FTDC file");
}

async function stopAll(): Promise<void> {
  for (const server of servers.splice(0)) expect(await server.stop()).toBe(0);
}

async function partFiles() {
  const files = await signedInClient(CloudService, cloud.url, machine!.credentials.cloud.api_key);
  return (await files.listFiles({ partId: machine!.partId })).files;
}

describe("FTDC files and svc-cloud", () => {
  it("sends each closed file once, as it is, at the next start and once svc-cloud is back", async () => {
    machine = await cloudManagedMachine(cloud, "diagnosed");
    await machine.edit({ components: [{ name: "temp", api: "rdk:component:sensor", model: "fake" }] });

    // A first run: its file is being written until it stops, so it is not sent.
    const first = await runUntilRecorded();
    expect(await partFiles()).toEqual([]);
    await stopAll();

    // The next run sends the first run's file, as it is.
    const second = await runUntilRecorded();
    const sent = await eventually(async () => {
      const files = await partFiles();
      return files.length === 1 ? files : undefined;
    }, "the first run's file in svc-cloud");
    expect(sent.map((f) => [f.fileName, f.fileExtension, Number(f.size), f.sha256])).toEqual([
      [first, ".ftdc", readFileSync(join(ftdcDir, first)).length, sha256(first)],
    ]);
    await stopAll();

    // svc-cloud stops; a run meanwhile cannot send the second run's file, and says so.
    expect(await cloud.stop()).toBe(0);
    const third = await runUntilRecorded();
    await eventually(() => (servers[0]!.stdout().includes("cannot upload an FTDC file to svc-cloud") ? true : undefined), "the failed upload said");
    cloud = await startSameCloud();
    const after = await eventually(async () => {
      const files = await partFiles();
      return files.length === 2 ? files : undefined;
    }, "the second run's file once svc-cloud is back");
    expect(after.map((f) => f.fileName).sort()).toEqual([first, second].sort());
    await stopAll();

    // One more run sends the third run's file only: none twice.
    await runUntilRecorded();
    const all = await eventually(async () => {
      const files = await partFiles();
      return files.length >= 3 ? files : undefined;
    }, "the third run's file");
    expect(all.map((f) => f.fileName).sort()).toEqual([first, second, third].sort());
    await stopAll();
  });
});
