// svc-server managed by the real svc-cloud, both real processes on loopback: started with the
// credentials file `svc-cloud machine create` prints, the machine runs its part's config from the
// cloud and follows each edit at once, as the official SDK sees it: GetMachineStatus names the
// cloud's revision, GetCloudMetadata the part's ids; the port offers TLS with the certificate
// svc-cloud issued for the machine's names beside cleartext; a history restore comes back, a
// config the machine refuses leaves it as it was with the reason logged and in the part's status,
// the machine's logs (a process's output among them) reach svc-cloud, and a restart asked for in
// the app ends svc-server with its restart exit status.
import { existsSync, statSync } from "node:fs";
import { join } from "node:path";
import * as VIAM from "@viamrobotics/sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CloudService } from "../../../proto/gen/svc/cloud/v1/cloud_pb.js";
import { AppService } from "../../../proto/gen/app/v1/app_pb.js";
import { RESTART_EXIT_CODE } from "../../../targets/linux/server/cloud/index.js";
import { signedInClient } from "../../helpers/cloud-client.js";
import { cloudAuthority, presentedCertificate, robotOverTls } from "../../helpers/cloud-tls.js";
import { cloudManagedMachine, type CloudManaged } from "../../helpers/cloud-managed.js";
import { startCloud, type CloudProcess } from "../../helpers/cloud-process.js";
import { eventually } from "../../helpers/eventually.js";
import { freePort } from "../../helpers/free-port.js";
import { logLines } from "../../helpers/log-lines.js";
import { dialSdk } from "../../helpers/sdk-robot.js";
import { startSvcServer, type SvcServerProcess } from "../../helpers/svc-server-process.js";

let cloud: CloudProcess;
const machines: CloudManaged[] = [];
const servers: SvcServerProcess[] = [];
const robots: VIAM.RobotClient[] = [];

beforeAll(async () => {
  cloud = await startCloud();
});
afterAll(async () => {
  for (const robot of robots) await robot.disconnect();
  for (const server of servers) await server.stop();
  for (const machine of machines) machine.remove();
  await cloud?.stop();
});

async function managed(name: string, args: string[] = [], refreshInterval?: string) {
  const machine = await cloudManagedMachine(cloud, name);
  machines.push(machine);
  if (refreshInterval) Object.assign(machine.credentials.cloud, { refresh_interval: refreshInterval });
  // A first boot starts on the cloud's config: a free loopback port, not the default 8080.
  await machine.edit({});
  const server = await machine.start({ args });
  servers.push(server);
  const robot = await dialSdk(server.sdkHost);
  robots.push(robot);
  return { machine, server, robot };
}

const names = async (robot: VIAM.RobotClient) => (await robot.resourceNames()).map((n) => n.name).sort();

describe("svc-server with a credentials file", () => {
  it("runs the part's config from svc-cloud and follows every edit at once, as the SDK sees it", async () => {
    const { machine, robot } = await managed("rover");
    const first = await machine.edit({ components: [{ name: "temp", api: "rdk:component:sensor", model: "fake" }] });
    await eventually(async () => ((await names(robot)).includes("temp") ? true : undefined), "the sensor from the cloud");
    const readings = await new VIAM.SensorClient(robot, "temp").getReadings();
    expect(Object.keys(readings).length).toBeGreaterThan(0);
    const status = await robot.getMachineStatus();
    expect(status.config?.revision).toBe(first);

    const second = await machine.edit({
      components: [
        { name: "temp", api: "rdk:component:sensor", model: "fake" },
        { name: "left", api: "rdk:component:motor", model: "fake" },
      ],
    });
    await eventually(async () => ((await robot.getMachineStatus()).config?.revision === second ? true : undefined), `revision ${second}`);
    expect(await names(robot)).toEqual(expect.arrayContaining(["left", "temp"]));

    // History restore: a new revision equal to the first; the motor goes again.
    const owner = await signedInClient(CloudService, cloud.url, cloud.init.api_key);
    await owner.restoreRobotPartRevision({ partId: machine.partId, revision: first });
    await eventually(async () => (!(await names(robot)).includes("left") ? true : undefined), "the restored revision without the motor");
    expect(Number((await robot.getMachineStatus()).config?.revision)).toBeGreaterThan(Number(second));
  });

  it("takes each of many quick edits from the push stream alone, a write of its cache between them included", async () => {
    // Polled once an hour: only svc-cloud's revision notices can bring these edits in time.
    const { machine, robot } = await managed("quick", [], "1h");
    await machine.edit({});
    for (let i = 0; i < 12; i++) {
      const revision = await machine.edit({ components: [{ name: `s${i}`, api: "rdk:component:sensor", model: "fake" }] });
      await eventually(async () => ((await robot.getMachineStatus()).config?.revision === revision ? true : undefined), `revision ${revision}`);
    }
    expect(await names(robot)).toEqual(["s11"]);
  });

  it("starts a first boot on the cloud's config, on the port it names", async () => {
    const machine = await cloudManagedMachine(cloud, "first-boot");
    machines.push(machine);
    const port = await freePort();
    const revision = await machine.edit({ network: { bind_address: `127.0.0.1:${port}` }, components: [{ name: "temp", api: "rdk:component:sensor", model: "fake" }] });
    const server = await machine.start();
    servers.push(server);
    expect(new URL(server.url).port).toBe(String(port));
    const robot = await dialSdk(server.sdkHost);
    robots.push(robot);
    expect((await robot.getMachineStatus()).config?.revision).toBe(revision);
    expect(logLines(server.stdout()).map((l) => l.msg)).toContain("first boot: starting on svc-cloud's configuration");
  });

  it("answers GetCloudMetadata with the part, machine, location and organisation", async () => {
    const { machine, robot } = await managed("scout");
    await machine.edit({});
    const metadata = await eventually(async () => {
      const answer = await robot.getCloudMetadata();
      return answer.machineId !== "" ? answer : undefined;
    }, "the cloud's ids");
    const app = await signedInClient(AppService, cloud.url, cloud.init.api_key);
    const { part } = await app.getRobotPart({ id: machine.partId });
    expect(metadata).toMatchObject({
      machinePartId: machine.partId,
      machineId: part!.robot,
      locationId: cloud.init.location_id,
      primaryOrgId: cloud.init.organization_id,
    });
  });

  it("offers TLS with svc-cloud's certificate for its names beside cleartext, and keeps it for the next boot", async () => {
    const { machine, server, robot } = await managed("beacon");
    const offered = await eventually(() => logLines(server.stdout()).find((l) => l.msg === "offering TLS with svc-cloud's certificate beside cleartext"), "TLS offered");
    const owner = await signedInClient(CloudService, cloud.url, cloud.init.api_key);
    const { localFqdn, fqdn } = await owner.machineConfig({ partId: machine.partId });
    expect(offered.from).toBe("svc-cloud");
    expect(String(offered.names).split(", ").sort()).toEqual([`DNS:${fqdn}`, `DNS:${localFqdn}`].sort());
    const ca = await cloudAuthority(cloud.url);
    const port = Number(new URL(server.sdkHost).port);
    // The certificate the port presents for the machine's local name is svc-cloud's, vouched for by its authority.
    expect(await presentedCertificate(port, localFqdn, ca)).toMatchObject({ authorized: true, names: expect.stringContaining(`DNS:${localFqdn}`) });
    // A call by that name over TLS, and one in cleartext as before, on the same port.
    const status = await robotOverTls(localFqdn, port, ca).getMachineStatus({});
    expect(status.config?.revision).toBe((await robot.getMachineStatus()).config?.revision);
    // Kept beside the cached config, readable by the machine's user alone.
    const kept = join(machine.cacheDir, `cloud-certificate-${machine.partId}.json`);
    await eventually(() => (existsSync(kept) ? true : undefined), "the certificate in the cache");
    expect(statSync(kept).mode & 0o777).toBe(0o600);
  });

  it("offers no TLS with -no-tls: a client's handshake is closed at once", async () => {
    const { server, robot } = await managed("dark", ["-no-tls"]);
    expect((await robot.getMachineStatus()).state).toBeDefined();
    const ca = await cloudAuthority(cloud.url);
    const port = Number(new URL(server.sdkHost).port);
    await expect(presentedCertificate(port, "dark-main", ca)).rejects.toThrow(/socket disconnected|ECONNRESET/);
    expect(logLines(server.stdout()).map((l) => l.msg)).not.toContain("offering TLS with svc-cloud's certificate beside cleartext");
  });

  it("keeps running as it was when the cloud's new revision is one it refuses, and says why", async () => {
    // -untrusted-env: this machine runs no processes, so a revision that adds one is refused whole.
    const { machine, server, robot } = await managed("sealed", ["-untrusted-env"]);
    const good = await machine.edit({ components: [{ name: "temp", api: "rdk:component:sensor", model: "fake" }] });
    await eventually(async () => ((await robot.getMachineStatus()).config?.revision === good ? true : undefined), `revision ${good}`);
    const refused = await machine.edit({
      components: [{ name: "temp", api: "rdk:component:sensor", model: "fake" }],
      processes: [{ id: "shell", name: "/bin/sh", args: ["-c", "true"], one_shot: true }],
    });
    const line = await eventually(
      () => logLines(server.stdout()).find((l) => l.msg === "configuration refused; the machine keeps running as it was" && l.file === `cloud revision ${refused}`),
      "the refusal in the log",
    );
    expect(String(line.reason)).toMatch(/processes/);
    expect((await robot.getMachineStatus()).config?.revision).toBe(good);
    expect(await names(robot)).toContain("temp");
    // The part's status in svc-cloud says so too: what runs, what was refused and why.
    const owner = await signedInClient(CloudService, cloud.url, cloud.init.api_key);
    const status = await eventually(async () => {
      const now = await owner.getPartStatus({ partId: machine.credentials.cloud.id });
      return now.refusedRevision === refused ? now : undefined;
    }, "the refusal in the part's status");
    expect(status.runningRevision).toBe(good);
    expect(status.refusedReason).toMatch(/processes/);
    // Refused once, not again at every poll or notice.
    await machine.edit({ components: [{ name: "temp", api: "rdk:component:sensor", model: "fake" }], processes: [{ id: "shell", name: "/bin/sh", args: ["-c", "true"], one_shot: true }], debug: false });
    await eventually(() => (logLines(server.stdout()).filter((l) => l.msg === "configuration refused; the machine keeps running as it was").length >= 2 ? true : undefined), "the second refusal");
    expect(logLines(server.stdout()).filter((l) => l.file === `cloud revision ${refused}` && l.msg.startsWith("configuration refused"))).toHaveLength(1);
  });

  it("sends every log line to svc-cloud in order, a process's output included, with its logger and level", async () => {
    const { machine, server } = await managed("chatty");
    await machine.edit({
      components: [{ name: "temp", api: "rdk:component:sensor", model: "fake" }],
      processes: [{ id: "hello", name: "/bin/sh", args: ["-c", "echo hello from a process"], one_shot: true, log: true }],
    });
    const logs = await eventually(async () => {
      const all = await machine.cloudLogs();
      return all.some((l) => l.message.includes("hello from a process")) ? all : undefined;
    }, "the process's output in svc-cloud");
    expect(logs.find((l) => l.message === "following svc-cloud")).toMatchObject({ loggerName: "svc.cloud", level: "info" });
    // Every line svc-server wrote arrived, with its logger and level, in the order it was written.
    const written = logLines(server.stdout()).map((l) => ({ message: l.msg, loggerName: l.logger, level: l.level }));
    expect(logs).toEqual(written.slice(0, logs.length));
  });

  it("runs a config with fragments, processes and global_log_configuration as it would from a file", async () => {
    const { machine, server, robot } = await managed("assembled");
    const app = await signedInClient(AppService, cloud.url, cloud.init.api_key);
    const lamp = { name: "lamp", api: "rdk:component:generic", model: "fake", attributes: { brightness: 1 } };
    const { fragment } = await app.createFragment({ organizationId: cloud.init.organization_id, name: `lamp-${machine.partId}`, config: { components: [lamp] } as never });
    const config = {
      fragments: [fragment!.id],
      components: [{ name: "temp", api: "rdk:component:sensor", model: "fake" }],
      processes: [{ id: "hello", name: "/bin/sh", args: ["-c", "echo assembled"], one_shot: true, log: true }],
      global_log_configuration: [{ api: "rdk:component:generic", level: "debug" }],
    };
    await machine.edit(config);
    await eventually(async () => ((await names(robot)).includes("lamp") ? true : undefined), "the fragment's component");
    expect(await names(robot)).toEqual(expect.arrayContaining(["lamp", "temp"]));
    await eventually(() => (server.stdout().includes("assembled") ? true : undefined), "the process's output");
    // Taken whole: no key of it went unrecognised or was refused.
    const fromCloud = logLines(server.stdout()).filter((l) => String(l.file ?? "").startsWith("cloud revision"));
    expect(fromCloud.filter((l) => l.level === "warn" || l.level === "error")).toEqual([]);
    expect(fromCloud.map((l) => l.msg)).toContain("configuration applied");
  });

  it("restarts when the app asks, exiting with the restart status its unit and svc-agent start it again on", async () => {
    const { machine, server } = await managed("phoenix");
    await machine.edit({});
    const app = await signedInClient(AppService, cloud.url, cloud.init.api_key);
    await app.markPartForRestart({ partId: machine.partId });
    const code = await new Promise<number | null>((resolve) => server.child.once("exit", (exit) => resolve(exit)));
    expect(code).toBe(RESTART_EXIT_CODE);
    expect(logLines(server.stdout()).map((l) => l.msg)).toContain("svc-cloud asked for a restart");
  });

  it("restarts to follow svc-cloud when its configuration file becomes a credentials file, as the provisioning portal makes it", async () => {
    const credentials = cloud.createMachine("newcomer");
    const server = await startSvcServer({ components: [{ name: "temp", api: "rdk:component:sensor", model: "fake" }] });
    servers.push(server);
    const exited = new Promise<number | null>((resolve) => server.child.once("exit", (exit) => resolve(exit)));
    server.writeConfig({ ...credentials, network: { bind_address: "localhost:0" } });
    expect(await exited).toBe(RESTART_EXIT_CODE);
    const line = logLines(server.stdout()).find((l) => l.msg === "the configuration file is now a machine's credentials file; restarting to follow svc-cloud");
    expect(line?.part).toBe(credentials.cloud.id);
  });
});
