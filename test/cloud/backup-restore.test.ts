// `svc-cloud backup` and `restore` as an operator runs them, against the real svc-cloud: a backup
// made while the service runs, changes after it, a restore once the service is stopped, and the
// old state back when it starts again. The hostile half: a file that is not a store, a restore
// while the service runs, a second service on the same folder, an existing backup file.
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterEach, describe, expect, it } from "vitest";
import { AppService } from "../../proto/gen/app/v1/app_pb.js";
import { signedInClient, signIn } from "../helpers/cloud-client.js";
import { runCloud, startCloud, type CloudProcess, type InitResult } from "../helpers/cloud-process.js";

const running: CloudProcess[] = [];
const folders: string[] = [];
afterEach(async () => {
  for (const cloud of running.splice(0)) await cloud.stop();
  for (const dir of folders.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function folder(): string {
  const dir = mkdtempSync(join(tmpdir(), "svc-cloud-backup-"));
  folders.push(dir);
  return dir;
}

/** An initialised data folder that outlives the services started on it. */
function initialised(): { dataDir: string; init: InitResult } {
  const dataDir = folder();
  const made = runCloud(["init"], dataDir);
  expect(made.status).toBe(0);
  return { dataDir, init: JSON.parse(made.stdout) as InitResult };
}

async function serve(reuse: { dataDir: string; init: InitResult }): Promise<CloudProcess> {
  const cloud = await startCloud({ reuse });
  running.push(cloud);
  return cloud;
}

async function machineNames(cloud: CloudProcess): Promise<string[]> {
  const app = await signedInClient(AppService, cloud.url, cloud.init.api_key);
  return (await app.listRobots({ locationId: cloud.init.location_id })).robots.map((r) => r.name).sort();
}

describe("svc-cloud backup and restore", () => {
  it("backs up while serving; after a stop, restore brings that state back and keeps the replaced store", async () => {
    const data = initialised();
    let cloud = await serve(data);
    cloud.createMachine("before");
    const backup = join(folder(), "fleet.db");
    const made = cloud.run(["backup", backup]);
    expect(made.status).toBe(0);
    expect(made.stderr).toMatch(/backed up .* to .*fleet\.db \(\d+ bytes\)/);

    const later = cloud.createMachine("after");
    expect(await machineNames(cloud)).toEqual(["after", "before"]);
    const refused = cloud.run(["restore", backup]);
    expect(refused.status).toBe(1);
    expect(refused.stderr).toMatch(/svc-cloud \(PID \d+\) is serving .*: stop it, then restore/);

    await cloud.stop();
    const restored = runCloud(["restore", backup], data.dataDir);
    expect(restored.status).toBe(0);
    expect(restored.stderr).toMatch(/the store it replaced is kept as .*svc-cloud\.db\.before-restore-/);
    expect(readdirSync(data.dataDir).filter((f) => f.startsWith("svc-cloud.db.before-restore-") && !/-(wal|shm)$/.test(f))).toHaveLength(1);

    cloud = await serve(data);
    expect(await machineNames(cloud)).toEqual(["before"]);
    // The machine made after the backup is gone with its key.
    await expect(signIn(cloud.url, later.cloud.api_key.id, later.cloud.api_key.key)).rejects.toThrow("[unauthenticated] invalid credentials");
  });

  it("refuses a file that is not a svc-cloud store, and leaves the folder as it was", async () => {
    const data = initialised();
    const elsewhere = folder();
    const text = join(elsewhere, "notes.txt");
    writeFileSync(text, "not a database at all, but long enough to look like one to a careless reader\n".repeat(100));
    const foreign = join(elsewhere, "other.db");
    const other = new Database(foreign);
    other.exec("CREATE TABLE things (id INTEGER)");
    other.close();
    const before = readdirSync(data.dataDir).sort();

    for (const file of [text, foreign]) {
      const refused = runCloud(["restore", file], data.dataDir);
      expect(refused.status).toBe(1);
      expect(refused.stderr).toMatch(/is not a svc-cloud store: .*; nothing was changed/);
    }
    const missing = runCloud(["restore", join(elsewhere, "nothing.db")], data.dataDir);
    expect(missing.stderr).toMatch(/nothing\.db: no such file/);
    expect(readdirSync(data.dataDir).sort()).toEqual(before);
    // The folder still serves its own state.
    const cloud = await serve(data);
    expect(await machineNames(cloud)).toEqual([]);
  });

  it("never overwrites an existing file, and names what is missing", async () => {
    const data = initialised();
    const taken = join(folder(), "taken.db");
    writeFileSync(taken, "an earlier backup");
    const refused = runCloud(["backup", taken], data.dataDir);
    expect(refused.status).toBe(1);
    expect(refused.stderr).toMatch(/taken\.db already exists/);
    expect(runCloud(["backup"], data.dataDir).stderr).toMatch(/backup needs the FILE to write/);
    expect(runCloud(["restore"], data.dataDir).stderr).toMatch(/restore needs the backup FILE/);
    expect(runCloud(["backup", "a.db", "b.db"], data.dataDir).status).toBe(2);
  });

  it("refuses a second service on a folder already served", async () => {
    const data = initialised();
    await serve(data);
    await expect(startCloud({ reuse: data })).rejects.toThrow(/svc-cloud \(PID \d+\) already serves/);
    expect(existsSync(join(data.dataDir, "svc-cloud.pid"))).toBe(true);
  });
});
