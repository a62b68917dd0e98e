// A cloud-managed svc-server without its cloud, real processes on loopback: with svc-cloud stopped
// the machine restarts and serves its cached config at once (the SDK reads its sensor, and
// GetMachineStatus says the revision came from the cache) and TLS with its cached certificate;
// the lines it logs meanwhile reach svc-cloud once it is back, every one, in order; the cloud's
// answer then replaces the cache's. A cache (of the config or of the certificate) that cannot be
// read is set aside and the machine boots anyway, and a key svc-cloud refuses leaves the machine
// running what it has, saying why.
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as VIAM from "@viamrobotics/sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CloudService } from "../../../proto/gen/svc/cloud/v1/cloud_pb.js";
import { signedInClient } from "../../helpers/cloud-client.js";
import { cloudManagedMachine, type CloudManaged } from "../../helpers/cloud-managed.js";
import { cloudAuthority, presentedCertificate } from "../../helpers/cloud-tls.js";
import { runCloud, startCloud, type CloudProcess, type InitResult } from "../../helpers/cloud-process.js";
import { eventually } from "../../helpers/eventually.js";
import { freePort } from "../../helpers/free-port.js";
import { logLines } from "../../helpers/log-lines.js";
import { dialSdk } from "../../helpers/sdk-robot.js";
import type { SvcServerProcess } from "../../helpers/svc-server-process.js";

const dataDir = mkdtempSync(join(tmpdir(), "svc-cloud-offline-"));
let init: InitResult;
let port: number;
let cloud: CloudProcess;
const machines: CloudManaged[] = [];
const servers: SvcServerProcess[] = [];

/** svc-cloud on the same folder and port each time, so the machines' credentials stay right. */
const startSameCloud = () => startCloud({ reuse: { dataDir, init }, args: ["--listen", `localhost:${port}`] });

beforeAll(async () => {
  init = JSON.parse(runCloud(["init"], dataDir).stdout) as InitResult;
  port = await freePort();
  cloud = await startSameCloud();
});
afterAll(async () => {
  for (const server of servers) await server.stop();
  for (const machine of machines) machine.remove();
  await cloud?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

async function started(machine: CloudManaged): Promise<SvcServerProcess> {
  const server = await machine.start();
  servers.push(server);
  return server;
}

async function withSdk<T>(server: SvcServerProcess, use: (robot: VIAM.RobotClient) => Promise<T>): Promise<T> {
  const robot = await dialSdk(server.sdkHost);
  try {
    return await use(robot);
  } finally {
    await robot.disconnect();
  }
}

const revisionOf = (server: SvcServerProcess) => withSdk(server, async (robot) => (await robot.getMachineStatus()).config?.revision);

describe("a cloud-managed machine offline", () => {
  it("restarts without svc-cloud on its cached config, and its logs from meanwhile arrive in order once the cloud is back", async () => {
    const machine = await cloudManagedMachine(cloud, "island");
    machines.push(machine);
    const revision = await machine.edit({ components: [{ name: "temp", api: "rdk:component:sensor", model: "fake" }] });
    const first = await started(machine);
    await eventually(async () => ((await revisionOf(first)) === revision ? true : undefined), `revision ${revision}`);
    await eventually(() => (readdirSync(machine.cacheDir).some((name) => name.startsWith("cloud-config-")) ? true : undefined), "the cache");
    await eventually(() => (readdirSync(machine.cacheDir).some((name) => name.startsWith("cloud-certificate-")) ? true : undefined), "the certificate's cache");
    const ca = await cloudAuthority(cloud.url);
    const { localFqdn } = await (await signedInClient(CloudService, cloud.url, init.api_key)).machineConfig({ partId: machine.partId });
    expect(await first.stop()).toBe(0);

    expect(await cloud.stop()).toBe(0);
    const second = await started(machine);
    // Serving at once, the cache's config, before any word from the cloud.
    await withSdk(second, async (robot) => {
      expect(Object.keys(await new VIAM.SensorClient(robot, "temp").getReadings()).length).toBeGreaterThan(0);
      expect((await robot.getMachineStatus()).config?.revision).toBe(`${revision} (cache)`);
    });
    // TLS too, with the certificate kept from the last time the cloud answered.
    const port = Number(new URL(second.sdkHost).port);
    expect(await presentedCertificate(port, localFqdn, ca)).toMatchObject({ authorized: true });
    expect(logLines(second.stdout()).find((l) => l.msg === "offering TLS with svc-cloud's certificate beside cleartext")?.from).toBe("cache");
    const offline = await eventually(
      () => logLines(second.stdout()).find((l) => l.msg.startsWith("cannot fetch the configuration from svc-cloud")),
      "the line saying the cloud is away",
    );
    expect(offline.level).toBe("warn");

    cloud = await startSameCloud();
    await eventually(async () => ((await revisionOf(second)) === revision ? true : undefined), "the cloud's word on the same revision", { timeoutMs: 60_000 });
    await eventually(() => logLines(second.stdout()).find((l) => l.msg === "svc-cloud is reachable again"), "the line saying the cloud is back", { timeoutMs: 60_000 });
    // Every line both servers logged, the ones from while the cloud was away among them, in order.
    const written = [...logLines(first.stdout()), ...logLines(second.stdout())].map((l) => ({ message: l.msg, loggerName: l.logger, level: l.level }));
    const uploaded = await eventually(async () => {
      const logs = await machine.cloudLogs();
      return logs.some((l) => l.message === "svc-cloud is reachable again") ? logs : undefined;
    }, "the lines from the outage in svc-cloud", { timeoutMs: 60_000 });
    expect(uploaded.map((l) => l.message)).toContain("serving the cached configuration until svc-cloud answers");
    expect(uploaded).toEqual(written.slice(0, uploaded.length));
  });

  it("sets aside a cache it cannot read and boots without it", async () => {
    const machine = await cloudManagedMachine(cloud, "garbled");
    machines.push(machine);
    const cacheFile = join(machine.cacheDir, `cloud-config-${machine.partId}.json`);
    writeFileSync(cacheFile, '{"format": 1, "revision": "3", "config": "{\\"comp');
    // A certificate whose key is not its own: set aside too, and TLS waits for svc-cloud's.
    const certificateFile = join(machine.cacheDir, `cloud-certificate-${machine.partId}.json`);
    const pem = (kind: string) => `-----BEGIN ${kind}-----\nbm90IGEgY2VydGlmaWNhdGU=\n-----END ${kind}-----\n`;
    writeFileSync(certificateFile, JSON.stringify({ format: 1, cert: pem("CERTIFICATE"), key: pem("PRIVATE KEY"), fetchedAt: 0 }));
    const revision = await machine.edit({ components: [{ name: "temp", api: "rdk:component:sensor", model: "fake" }] });
    const server = await started(machine);
    const line = await eventually(() => logLines(server.stdout()).find((l) => l.msg.startsWith("the cached configuration cannot be used")), "the set-aside line");
    expect(String(line.problem)).toMatch(/not JSON/);
    expect(existsSync(String(line.kept_as))).toBe(true);
    await eventually(async () => ((await revisionOf(server)) === revision ? true : undefined), `revision ${revision}`);
    await eventually(() => (existsSync(cacheFile) ? true : undefined), "a new cache");
    const certificateLine = logLines(server.stdout()).find((l) => l.msg.startsWith("the cached certificate cannot be used"));
    expect(String(certificateLine?.problem)).toMatch(/cannot serve TLS/);
    expect(existsSync(String(certificateLine?.kept_as))).toBe(true);
    await eventually(() => logLines(server.stdout()).find((l) => l.msg === "offering TLS with svc-cloud's certificate beside cleartext"), "svc-cloud's certificate offered");
  });

  it("keeps running what it has when svc-cloud refuses its key, and says so", async () => {
    const machine = await cloudManagedMachine(cloud, "locked-out");
    machines.push(machine);
    machine.credentials.cloud.api_key.key = "not-the-key";
    const server = await started(machine);
    const line = await eventually(() => logLines(server.stdout()).find((l) => l.msg.startsWith("cannot fetch the configuration from svc-cloud")), "the refusal");
    expect(String(line.error)).toMatch(/invalid credentials/);
    expect(server.stdout()).not.toContain("not-the-key");
    await withSdk(server, async (robot) => expect((await robot.getMachineStatus()).state).toBe(VIAM.robotApi.GetMachineStatusResponse_State.RUNNING));
  });
});
