// What a broken or hostile cloud sends a cloud-managed svc-server (a fake cloud on the real gRPC
// wire): a config that is not JSON, nested past any bound, larger than any config may be, an
// answer that never comes, a flood of revision notices, a certificate that cannot be used. Each
// leaves the machine serving as it was, says why in the log (and a refusal to the cloud, for the
// part's status), and never wedges its stop.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as VIAM from "@viamrobotics/sdk";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { eventually } from "../../helpers/eventually.js";
import { startFakeCloud, type FakeAnswer, type FakeCloud } from "../../helpers/fake-cloud.js";
import { logLines } from "../../helpers/log-lines.js";
import { dialSdk } from "../../helpers/sdk-robot.js";
import { startSvcServer, type SvcServerProcess } from "../../helpers/svc-server-process.js";

const cacheDir = mkdtempSync(join(tmpdir(), "svc-cloud-hostile-"));
let fake: FakeCloud | undefined;
let server: SvcServerProcess | undefined;
afterEach(async () => {
  await server?.stop();
  await fake?.close();
  server = fake = undefined;
});
afterAll(() => rmSync(cacheDir, { recursive: true, force: true }));

const sensor = (revision: string): FakeAnswer => ({
  revision,
  config: JSON.stringify({ network: { bind_address: "localhost:0" }, components: [{ name: "temp", api: "rdk:component:sensor", model: "fake" }] }),
});

async function managedBy(first: FakeAnswer, certificate?: FakeCloud["certificate"]): Promise<{ fake: FakeCloud; server: SvcServerProcess }> {
  fake = await startFakeCloud(first);
  if (certificate) fake.certificate = certificate;
  const credentials = { cloud: { id: "part-1", api_key: { id: "key-1", key: "k3y" }, app_address: fake.url, refresh_interval: "1s" } };
  server = await startSvcServer(credentials, { env: { SVC_CLOUD_CACHE: join(cacheDir, String(Math.random()).slice(2)) } });
  return { fake, server };
}

async function revision(s: SvcServerProcess): Promise<string | undefined> {
  const robot = await dialSdk(s.sdkHost);
  try {
    return (await robot.getMachineStatus()).config?.revision;
  } finally {
    await robot.disconnect();
  }
}

const refusals = (s: SvcServerProcess, rev: string) =>
  logLines(s.stdout()).filter((l) => l.file === `cloud revision ${rev}` && String(l.msg).startsWith("configuration refused"));

describe("a cloud-managed svc-server against a hostile cloud", () => {
  it("refuses a config that is not JSON or is nested past any bound, keeps serving, and takes the next good one", async () => {
    const { fake, server } = await managedBy(sensor("4"));
    await eventually(async () => ((await revision(server)) === "4" ? true : undefined), "revision 4");
    fake.answer = { revision: "5", config: '{"components": [ {"name": ' };
    const line = await eventually(() => refusals(server, "5")[0], "the refusal of revision 5");
    expect(String(line.reason)).toMatch(/JSON/);
    const report = await eventually(() => fake.reports.find((r) => r.refusedRevision === "5"), "the refusal reported to the cloud");
    expect(report).toMatchObject({ runningRevision: "4", refusedReason: expect.stringMatching(/JSON/) });
    fake.answer = { revision: "6", config: `${"[".repeat(100_000)}${"]".repeat(100_000)}` };
    await eventually(() => refusals(server, "6")[0], "the refusal of revision 6");
    expect(await revision(server)).toBe("4");
    // Refused once each, however often the cloud is asked again.
    fake.answer = sensor("7");
    await eventually(async () => ((await revision(server)) === "7" ? true : undefined), "revision 7");
    expect(refusals(server, "5")).toHaveLength(1);
    await eventually(() => fake.reports.find((r) => r.runningRevision === "7" && r.refusedRevision === ""), "revision 7 reported, nothing refused");
  });

  it("refuses an answer larger than any config, without holding it", async () => {
    const { fake, server } = await managedBy(sensor("1"));
    await eventually(async () => ((await revision(server)) === "1" ? true : undefined), "revision 1");
    fake.answer = { revision: "2", config: "x".repeat(30 * 1024 * 1024) };
    const line = await eventually(() => logLines(server.stdout()).find((l) => String(l.msg).startsWith("cannot fetch the configuration")), "the refused answer");
    expect(String(line.error)).toMatch(/resource_exhausted.*larger/);
    expect(await revision(server)).toBe("1");
  });

  it("serves, and stops at once, while the cloud never answers", async () => {
    const { fake, server } = await managedBy(sensor("1"));
    await eventually(async () => ((await revision(server)) === "1" ? true : undefined), "revision 1");
    fake.answer = (signal) => new Promise((_resolve, reject) => signal.addEventListener("abort", () => reject(new Error("the caller went away"))));
    const asked = fake.calls.machineConfig;
    await eventually(() => (fake.calls.machineConfig > asked ? true : undefined), "a call that hangs");
    const robot = await dialSdk(server.sdkHost);
    expect(Object.keys(await new VIAM.SensorClient(robot, "temp").getReadings()).length).toBeGreaterThan(0);
    await robot.disconnect();
    expect(await server.stop()).toBe(0);
  });

  it("offers no TLS with a certificate the cloud answers that cannot be used, and says why", async () => {
    const pem = (kind: string) => `-----BEGIN ${kind}-----\nbm90IGEgY2VydGlmaWNhdGU=\n-----END ${kind}-----\n`;
    const { server } = await managedBy(sensor("1"), { tlsCertificate: pem("CERTIFICATE"), tlsPrivateKey: pem("PRIVATE KEY") });
    await eventually(async () => ((await revision(server)) === "1" ? true : undefined), "revision 1");
    const line = await eventually(() => logLines(server.stdout()).find((l) => l.msg.startsWith("svc-cloud answered a certificate that cannot be used")), "the unusable certificate");
    expect(line.level).toBe("warn");
    expect(logLines(server.stdout()).map((l) => l.msg)).not.toContain("offering TLS with svc-cloud's certificate beside cleartext");
    expect(await revision(server)).toBe("1");
  });

  it("asks for the config a bounded number of times when the cloud floods it with revision notices", async () => {
    const { fake, server } = await managedBy(sensor("1"));
    fake.notices = Array.from({ length: 2000 }, (_, i) => String(i + 2));
    await eventually(async () => ((await revision(server)) === "1" ? true : undefined), "revision 1");
    await eventually(() => (fake.calls.watch >= 1 ? true : undefined), "the watch stream");
    // Each notice names a revision the machine does not have, yet fetches coalesce: one in flight at a time.
    expect(fake.calls.machineConfig).toBeLessThan(200);
    expect(await server.stop()).toBe(0);
  });
});
