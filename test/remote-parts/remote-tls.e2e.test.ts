// A remote dialled over TLS (`insecure` false, the default): a part serving TLS with a certificate
// of its own is joined by a main part that trusts that certificate (NODE_EXTRA_CA_CERTS, as a
// system's authorities would), and refused, with the reason in its status, by one that does not:
// certificates are checked, never waived.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as VIAM from "@viamrobotics/sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eventually } from "../helpers/eventually.js";
import { dialSdk } from "../helpers/sdk-robot.js";
import { makeSelfSignedCertificate } from "../helpers/self-signed.js";
import { startSvcServer, type SvcServerProcess } from "../helpers/svc-server-process.js";
import { startPart, when, type Part } from "./parts.js";

const dir = mkdtempSync(join(tmpdir(), "svc-remote-tls-"));
let secure: Part;
let trusting: SvcServerProcess;
let doubting: SvcServerProcess;

beforeAll(async () => {
  const { certFile, keyFile } = makeSelfSignedCertificate(dir);
  secure = await startPart({
    network: { tls_cert_file: certFile, tls_key_file: keyFile },
    components: [{ name: "vault", api: "rdk:component:sensor", model: "fake", attributes: { readings: { locked: true } } }],
  });
  const remotes = [{ name: "secure", address: `localhost:${secure.port}`, reconnect_interval: "100ms" }];
  trusting = await startSvcServer({ remotes }, { env: { NODE_EXTRA_CA_CERTS: certFile } });
  doubting = await startSvcServer({ remotes });
}, 60_000);

afterAll(async () => {
  await trusting?.stop();
  await doubting?.stop();
  await secure?.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe("a remote dialled over TLS", () => {
  it("is joined by a part that trusts its certificate", async () => {
    await eventually(() => when(trusting.url, "rdk:component:sensor/secure:vault", "READY"), "the TLS remote's sensor");
    const robot = await dialSdk(trusting.sdkHost);
    try {
      expect(await new VIAM.SensorClient(robot, "vault").getReadings()).toEqual({ locked: true });
    } finally {
      await robot.disconnect();
    }
  });

  it("is refused, with the reason, by a part that does not", async () => {
    const refused = await eventually(() => when(doubting.url, "rdk:remote:/secure", "UNHEALTHY", /certificate/), "the certificate refused");
    expect(refused.error).toMatch(/^unavailable: .*certificate/);
  });
});
