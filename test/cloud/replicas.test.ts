// svc-cloud as several replicas on one real PostgreSQL, with real svc-server machines: an edit made
// through any replica reaches a machine whose push stream another replica holds (the machines poll
// only hourly here, so only the push can bring it), and a key revoked through one replica is
// refused by the others, which keep what they checked between calls; behind a TCP load balancer,
// a replica killed with SIGKILL while machines log and people edit loses nothing it had answered
// for, and its machines move to the replica left; and PostgreSQL restarted under the same load is
// survived: every replica serves again and pushes reach machines again.
import * as VIAM from "@viamrobotics/sdk";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { AppService } from "../../proto/gen/app/v1/app_pb.js";
import { RobotService } from "../../proto/gen/app/v1/robot_pb.js";
import { CloudService } from "../../proto/gen/svc/cloud/v1/cloud_pb.js";
import { signedInClient } from "../helpers/cloud-client.js";
import { loopbackNetwork } from "../helpers/cloud-managed.js";
import { runCloud, type CloudProcess, type InitResult, type MachineCredentials } from "../helpers/cloud-process.js";
import { eventually } from "../helpers/eventually.js";
import { postgresReplicas } from "../helpers/postgres-replicas.js";
import { dialSdk } from "../helpers/sdk-robot.js";
import { startSvcServer, type SvcServerProcess } from "../helpers/svc-server-process.js";
import { startTcpBalancer, type TcpBalancer } from "../helpers/tcp-balancer.js";

const postgres = postgresReplicas();
const { folder, replicas } = postgres;
const machines: SvcServerProcess[] = [];
const robots: VIAM.RobotClient[] = [];
const balancers: TcpBalancer[] = [];

// vitest runs afterEach hooks last registered first: this one, registered after postgresReplicas(),
// stops the machines while the replicas still serve.
afterEach(async () => {
  for (const robot of robots.splice(0)) await robot.disconnect();
  for (const machine of machines.splice(0)) await machine.stop();
  for (const balancer of balancers.splice(0)) await balancer.close();
});

const portOf = (url: string) => Number(new URL(url).port);

/** A machine made through `cloud`, its svc-server reaching svc-cloud at `address`, polling only hourly. */
async function machine(cloud: CloudProcess, name: string, address: string) {
  const credentials = cloud.createMachine(name);
  const app = await signedInClient(AppService, cloud.url, cloud.init.api_key);
  await app.updateRobotPart({ id: credentials.cloud.id, name: "", robotConfig: { network: loopbackNetwork } as never });
  const cloudPart: MachineCredentials["cloud"] & { refresh_interval: string } = { ...credentials.cloud, app_address: address, refresh_interval: "1h" };
  const process = await startSvcServer({ cloud: cloudPart }, { env: { SVC_CLOUD_CACHE: folder() } });
  machines.push(process);
  const robot = await dialSdk(process.sdkHost);
  robots.push(robot);
  return { partId: credentials.cloud.id, key: credentials.cloud.api_key, process, robot };
}

type Machine = Awaited<ReturnType<typeof machine>>;

/** Gives the part a sensor named `sensor` through `cloud`'s app API. */
async function edit(cloud: CloudProcess, partId: string, sensor: string): Promise<void> {
  const app = await signedInClient(AppService, cloud.url, cloud.init.api_key);
  await app.updateRobotPart({
    id: partId,
    name: "",
    robotConfig: { network: loopbackNetwork, components: [{ name: sensor, api: "rdk:component:sensor", model: "fake" }] } as never,
  });
}

async function runs(robot: VIAM.RobotClient, sensor: string): Promise<true | undefined> {
  const names = (await robot.resourceNames()).map((n) => n.name);
  return names.includes(sensor) ? true : undefined;
}

describe("svc-cloud replicas on one PostgreSQL", () => {
  it("pushes an edit made through one replica to machines whose streams the others hold", async () => {
    const { clouds: [a, b, c] } = await replicas(3);
    const onB = await machine(a!, "on-b", b!.url);
    const onC = await machine(a!, "on-c", c!.url);
    await edit(a!, onB.partId, "made-through-a");
    await edit(b!, onC.partId, "made-through-b");
    await eventually(() => runs(onB.robot, "made-through-a"), "the machine held by B running A's edit");
    await eventually(() => runs(onC.robot, "made-through-b"), "the machine held by C running B's edit");
  });

  it("refuses at every replica a key revoked through one, though each keeps what it checked", async () => {
    const { clouds: [a, b] } = await replicas(2);
    const made = a!.createMachine("removed");
    const device = await signedInClient(CloudService, b!.url, made.cloud.api_key);
    for (let i = 0; i < 3; i++) expect((await device.machineConfig({ partId: made.cloud.id })).revision).not.toBe("");
    const app = await signedInClient(AppService, a!.url, a!.init.api_key);
    const { part } = await app.getRobotPart({ id: made.cloud.id });
    await app.deleteRobot({ id: part!.robot });
    await eventually(
      () => device.machineConfig({ partId: made.cloud.id }).then(() => undefined, (thrown: Error) => thrown.message),
      "the revoked key refused through B",
    ).then((message) => expect(message).toMatch(/unauthenticated.*revoked/));
  });
});

/** Each call of the load has a deadline, as svc-server's calls to svc-cloud do (15 s). */
const CALL_DEADLINE_MS = 15_000;

/**
 * What people and machines do meanwhile, through `url`: a part logs numbered entries one call at a
 * time, and someone edits another part again and again; each writer notes what was answered OK and,
 * when a call fails, tries again with the next number. `stop()` ends both and answers the notes.
 */
function startLoad(url: string, init: InitResult, logger: { partId: string; key: { id: string; key: string } }, edited: string) {
  let stopping = false;
  const logged: number[] = [];
  const edits: number[] = [];
  const lastFailure = { log: "", edit: "" };
  const pause = () => new Promise((resolve) => setTimeout(resolve, 50));
  const logs = (async () => {
    const robot = await signedInClient(RobotService, url, logger.key);
    for (let n = 1; !stopping; n++) {
      try {
        await robot.log({ id: logger.partId, logs: [{ host: "loader", level: "info", loggerName: "load", message: `entry ${n}`, time: { seconds: BigInt(Math.floor(Date.now() / 1000)), nanos: 0 } }] }, { timeoutMs: CALL_DEADLINE_MS });
        logged.push(n);
      } catch (thrown) {
        lastFailure.log = `${new Date().toISOString()} ${String(thrown)}`;
        await pause();
      }
    }
  })();
  const editing = (async () => {
    const app = await signedInClient(AppService, url, init.api_key);
    for (let n = 1; !stopping; n++) {
      try {
        await app.updateRobotPart({ id: edited, name: "", robotConfig: { network: loopbackNetwork, components: [{ name: `edit-${n}`, api: "rdk:component:sensor", model: "fake" }] } as never }, { timeoutMs: CALL_DEADLINE_MS });
        edits.push(n);
      } catch (thrown) {
        lastFailure.edit = `${new Date().toISOString()} ${String(thrown)}`;
        await pause();
      }
      await pause();
    }
  })();
  return {
    progress: () => ({ logged: logged.length, edits: edits.length }),
    /** The last failed call of each writer, when and why: what a stalled load says. */
    lastFailure: () => ({ ...lastFailure }),
    async stop() {
      stopping = true;
      await Promise.all([logs, editing]);
      return { logged, edits };
    },
  };
}

/** That every answered entry and edit is in the store, read through `cloud`. */
async function nothingLost(cloud: CloudProcess, loggerPart: string, editedPart: string, done: { logged: number[]; edits: number[] }) {
  const app = await signedInClient(AppService, cloud.url, cloud.init.api_key);
  // Every page: a load that outlasts a slow restart answers more entries than one page holds.
  const stored = new Set<string>();
  let pageToken = "";
  do {
    const page = await app.getRobotPartLogs({ id: loggerPart, limit: 1000n, pageToken });
    for (const entry of page.logs) stored.add(entry.message);
    pageToken = page.nextPageToken;
  } while (pageToken !== "");
  expect(done.logged.filter((n) => !stored.has(`entry ${n}`))).toEqual([]);
  const { history } = await app.getRobotPartHistory({ id: editedPart });
  const names = new Set(history.map((entry) => ((entry.old?.robotConfig?.components as { name: string }[] | undefined) ?? [])[0]?.name));
  expect(done.edits.filter((n) => !names.has(`edit-${n}`))).toEqual([]);
}

/** Two replicas behind a balancer, three machines reaching svc-cloud through it, and a part to log and one to edit. */
async function fleetBehindBalancer() {
  const { database, init, clouds: [a, b] } = await replicas(2);
  const balancer = await startTcpBalancer([portOf(a!.url), portOf(b!.url)]);
  balancers.push(balancer);
  const fleet: Machine[] = [];
  for (const name of ["m1", "m2", "m3"]) fleet.push(await machine(a!, name, balancer.url));
  const logger = a!.createMachine("logger");
  const edited = a!.createMachine("edited");
  return { database, init, a: a!, b: b!, balancer, fleet, logger: { partId: logger.cloud.id, key: logger.cloud.api_key }, edited: edited.cloud.id };
}

async function loadUntil(load: ReturnType<typeof startLoad>, more: number, what: string) {
  const from = load.progress();
  await eventually(() => {
    const now = load.progress();
    if (now.logged >= from.logged + more && now.edits >= from.edits + more) return true;
    throw new Error(`${now.logged - from.logged} more entries and ${now.edits - from.edits} more edits answered; last failures: ${JSON.stringify(load.lastFailure())}`);
  }, what, { timeoutMs: 60_000 });
}

describe("svc-cloud replicas through failures", () => {
  it("loses nothing when a replica is killed under load, and its machines move to the one left", async () => {
    const { init, a, b, balancer, fleet, logger, edited } = await fleetBehindBalancer();
    await eventually(() => ((balancer.connections().get(portOf(b.url)) ?? 0) > 0 ? true : undefined), "some connection held by B");
    const load = startLoad(balancer.url, init, logger, edited);
    await loadUntil(load, 20, "load through both replicas");
    b.child.kill("SIGKILL");
    await loadUntil(load, 20, "load carried on by the replica left");
    const done = await load.stop();
    await nothingLost(a, logger.partId, edited, done);
    // Every machine follows an edit again: its stream is now held by A.
    for (const [i, m] of fleet.entries()) await edit(a, m.partId, `after-kill-${i}`);
    for (const [i, m] of fleet.entries()) await eventually(() => runs(m.robot, `after-kill-${i}`), `machine ${i + 1} running the edit made after the kill`, { timeoutMs: 90_000 });
    expect(balancer.connections().get(portOf(b.url)) ?? 0).toBe(0);
  }, 240_000);

  it("survives PostgreSQL restarting under load: nothing answered is lost, and pushes reach every replica's machines again", async () => {
    const { database, init, a, b, fleet, logger, edited } = await fleetBehindBalancer();
    const load = startLoad(a.url.replace(/:\d+$/, `:${portOf(b.url)}`), init, logger, edited);
    await loadUntil(load, 20, "load before the restart");
    await postgres.server.restart();
    await loadUntil(load, 20, "load after the restart");
    const done = await load.stop();
    expect(a.child.exitCode).toBeNull();
    expect(b.child.exitCode).toBeNull();
    // Each replica listens for the others' notices again, and holds its claim to serve again (a
    // restore is refused while it serves).
    for (const replica of [a, b]) {
      await eventually(() => (replica.stderr().includes("listening for other replicas' notices again") ? true : undefined), "the channel made again", { timeoutMs: 60_000 });
      await eventually(() => (replica.stderr().includes("holding the claim to serve") ? true : undefined), "the claim taken again", { timeoutMs: 60_000 });
    }
    const backup = join(folder(), "fleet.dump");
    expect(a.run(["backup", backup]).status).toBe(0);
    expect(runCloud(["restore", backup], folder(), database).stderr).toMatch(/serves \S+ \(one process or more\): stop every one/);
    await nothingLost(a, logger.partId, edited, done);
    for (const [i, m] of fleet.entries()) await edit(i % 2 === 0 ? a : b, m.partId, `after-restart-${i}`);
    for (const [i, m] of fleet.entries()) await eventually(() => runs(m.robot, `after-restart-${i}`), `machine ${i + 1} running the edit made after the restart`, { timeoutMs: 90_000 });
  }, 240_000);
});
