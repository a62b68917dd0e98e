// The real svc-cloud with its state in a real PostgreSQL (`--database`), as an operator runs it:
// `init` makes the first organisation there, the service serves it, a machine made through the API
// and one made by `machine create` read back through the API, and the data folder holds no SQLite
// store. Two processes serve one database side by side, each seeing what the other wrote, and of a
// name asked for through both at once only one machine is made. `backup` runs while serving
// (pg_dump), `restore` is refused while any process serves, and once they stop it brings back the
// backed-up state, which a service started again serves. A URL that is not PostgreSQL's, or a
// database out of reach, is one line saying so, never a stack trace or the password.
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { AppService } from "../../proto/gen/app/v1/app_pb.js";
import { signedInClient } from "../helpers/cloud-client.js";
import { runCloud, startCloud, type CloudProcess, type InitResult } from "../helpers/cloud-process.js";
import { startPostgresServer, type PostgresServer } from "../helpers/postgres-server.js";
import { freePort } from "../helpers/free-port.js";
import { distLinux } from "../helpers/run-cli.js";

let server: PostgresServer;
const running: CloudProcess[] = [];
const folders: string[] = [];
beforeAll(async () => {
  server = await startPostgresServer();
});
afterEach(async () => {
  for (const cloud of running.splice(0)) await cloud.stop();
  for (const dir of folders.splice(0)) rmSync(dir, { recursive: true, force: true });
});
afterAll(async () => {
  await server?.stop();
});

function folder(): string {
  const dir = mkdtempSync(join(tmpdir(), "svc-cloud-pg-"));
  folders.push(dir);
  return dir;
}

async function serve(database: string, init: InitResult, dataDir = folder()): Promise<CloudProcess> {
  const cloud = await startCloud({ database, reuse: { dataDir, init } });
  running.push(cloud);
  return cloud;
}

async function stopAll(): Promise<void> {
  for (const cloud of running.splice(0)) expect(await cloud.stop()).toBe(0);
}

async function machineNames(cloud: CloudProcess): Promise<string[]> {
  const app = await signedInClient(AppService, cloud.url, cloud.init.api_key);
  return (await app.listRobots({ locationId: cloud.init.location_id })).robots.map((r) => r.name).sort();
}

describe("svc-cloud on PostgreSQL", () => {
  it("initialises, serves, and makes machines through the API and the command line, all in the database", async () => {
    const database = await server.createDatabase();
    const dataDir = folder();
    const made = runCloud(["init", "--email", "owner@example.com", "--password", "correct horse"], dataDir, database);
    expect(made.status).toBe(0);
    const init = JSON.parse(made.stdout) as InitResult;
    const cloud = await serve(database, init, dataDir);
    expect(cloud.stderr()).toContain(`the store is the PostgreSQL database ${database}`);

    const app = await signedInClient(AppService, cloud.url, init.api_key);
    const { id } = await app.newRobot({ name: "rover", location: init.location_id });
    expect((await app.getRobot({ id })).robot).toMatchObject({ id, name: "rover", location: init.location_id });
    const [part] = (await app.getRobotParts({ robotId: id })).parts;
    expect(part).toMatchObject({ name: "rover-main", mainPart: true });
    cloud.createMachine("arm");
    expect(await machineNames(cloud)).toEqual(["arm", "rover"]);
    expect(readdirSync(dataDir).filter((name) => name.startsWith("svc-cloud.db"))).toEqual([]);
    expect(runCloud(["init"], folder(), database).stderr).toMatch(/already initialised/);
  });

  it("serves one database from two processes, each seeing the other's machines, one machine per name", async () => {
    const database = await server.createDatabase();
    const made = runCloud(["init"], folder(), database);
    expect(made.status).toBe(0);
    const init = JSON.parse(made.stdout) as InitResult;
    const [a, b] = [await serve(database, init), await serve(database, init)];
    const [appA, appB] = [await signedInClient(AppService, a!.url, init.api_key), await signedInClient(AppService, b!.url, init.api_key)];
    await appA.newRobot({ name: "from-a", location: init.location_id });
    expect(await machineNames(b!)).toEqual(["from-a"]);
    const raced = await Promise.allSettled([appA, appB, appA, appB, appA, appB].map((app) => app.newRobot({ name: "twin", location: init.location_id })));
    expect(raced.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    for (const r of raced) if (r.status === "rejected") expect(String(r.reason)).toMatch(/already exists/);
    expect(await machineNames(a!)).toEqual(["from-a", "twin"]);
  });

  it("backs up while serving, refuses a restore while any process serves, and restores once they stop", async () => {
    const database = await server.createDatabase();
    const made = runCloud(["init"], folder(), database);
    const init = JSON.parse(made.stdout) as InitResult;
    const cloud = await serve(database, init);
    await serve(database, init);
    cloud.createMachine("before");
    const backup = join(folder(), "fleet.dump");
    const backedUp = cloud.run(["backup", backup]);
    expect(backedUp.status).toBe(0);
    expect(backedUp.stderr).toMatch(/backed up postgres:\/\/\S+ to .*fleet\.dump \(\d+ bytes\)/);
    cloud.createMachine("after");
    expect(await machineNames(cloud)).toEqual(["after", "before"]);

    const restoreDir = folder();
    const refused = runCloud(["restore", backup], restoreDir, database);
    expect(refused.status).toBe(1);
    expect(refused.stderr).toMatch(/svc-cloud serves postgres:\/\/\S+ \(one process or more\): stop every one, then restore/);
    await stopAll();
    const restored = runCloud(["restore", backup], restoreDir, database);
    expect(restored.stderr).toMatch(/restored .*fleet\.dump into postgres:\/\/\S+; the store it replaced is kept as .*before-restore-.*\.dump/);
    expect(restored.status).toBe(0);
    const kept = /kept as (\S+)/.exec(restored.stderr)![1]!;
    expect(existsSync(kept)).toBe(true);
    const again = await serve(database, init);
    expect(await machineNames(again)).toEqual(["before"]);
  });

  it("refuses a URL that names no PostgreSQL database, and a database it cannot reach, without showing a password", async () => {
    const dir = folder();
    const notPostgres = runCloud(["init"], dir, "mysql://svc@127.0.0.1/svc");
    expect([notPostgres.status, notPostgres.stderr.trim()]).toEqual([1, "svc-cloud: --database mysql://svc@127.0.0.1/svc: only PostgreSQL is supported (postgres://USER@HOST:PORT/DATABASE)"]);
    expect(runCloud(["init"], dir, "postgres://svc@127.0.0.1:5432").stderr).toMatch(/name the host and the database/);
    const port = await freePort();
    const unreachable = runCloud(["machine", "create", "--name", "x"], dir, `postgres://svc:hunter2@127.0.0.1:${port}/svc`);
    expect(unreachable.status).toBe(1);
    expect(unreachable.stderr).toMatch(new RegExp(`^svc-cloud: the database: connect ECONNREFUSED 127\\.0\\.0\\.1:${port}\\n$`));
    const served = spawnSync(process.execPath, [join(distLinux, "svc-cloud.mjs"), "--data", dir, "--database", `postgres://svc:hunter2@127.0.0.1:${port}/svc`, "--listen", "localhost:0"], { encoding: "utf8", timeout: 30_000 });
    expect(served.status).toBe(1);
    expect(served.stderr).not.toContain("hunter2");
    expect(served.stderr).not.toMatch(/\n\s+at /);
  });
});
