// The device side's unary calls against svc-cloud in this process: Config answers the part's
// config as Viam's RobotConfig with `cloud` filled in and records the part's last access;
// NeedsRestart tells a requested restart once; Certificate gives the part a certificate for its
// names that openssl verifies against the downloadable CA; the credentials file route answers the
// part's own live key only. The hostile half: no token, another part's key, a revoked key.
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createClient } from "@connectrpc/connect";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RobotService } from "../../proto/gen/app/v1/robot_pb.js";
import { createManualClock } from "../../core/manual-clock.js";
import { startCloudServer } from "../../targets/cloud/start-cloud-server.js";
import { createMachine } from "../../targets/cloud/storage/fleet.js";
import { openStore } from "../../targets/cloud/storage/open-store.js";
import { revokeApiKey } from "../../targets/cloud/storage/api-keys.js";
import { saveRevision } from "../../targets/cloud/storage/revisions.js";
import { cloudTransport, signedInClient } from "../helpers/cloud-client.js";
import { startInProcessCloud, type InProcessCloud } from "../helpers/cloud-in-process.js";
import { requireTools } from "../helpers/system-tools.js";

let cloud: InProcessCloud;
let scratch: string;
beforeAll(async () => {
  cloud = await startInProcessCloud();
  scratch = mkdtempSync(join(tmpdir(), "svc-device-config-"));
});
afterAll(async () => {
  await cloud?.stop();
  rmSync(scratch, { recursive: true, force: true });
});

const db = () => cloud.server.context.store.db;

async function machine(name: string) {
  const made = await createMachine(db(), { locationId: cloud.init.location_id, organizationId: cloud.init.organization_id, name, editedBy: "test", now: cloud.clock.now() });
  const robot = await signedInClient(RobotService, cloud.url, made.partKey);
  return { ...made, robot };
}

describe("RobotService.Config", () => {
  it("answers the part's config as a RobotConfig with cloud filled in, and records the access", async () => {
    const m = await machine("config-reader");
    await saveRevision(db(), {
      partId: m.partId,
      config: { components: [{ name: "m1", api: "rdk:component:motor", model: "fake", frame: { parent: "world", orientation: { type: "ov_degrees", value: { z: 1, th: 30 } } } }], modules: [{ name: "mod", executable_path: "/opt/mod", first_run_timeout: "2m" }] },
      editedBy: "test",
      now: cloud.clock.now(),
    });
    cloud.clock.advance(1000);
    const { config } = await m.robot.config({ id: m.partId });
    expect(config?.revision).toBe("2");
    expect(config?.components[0]).toMatchObject({ name: "m1", api: "rdk:component:motor" });
    expect(config?.components[0]?.frame?.orientation?.type.case).toBe("vectorDegrees");
    expect(config?.modules[0]).toMatchObject({ path: "/opt/mod", firstRunTimeout: { seconds: 120n } });
    expect(config?.cloud).toMatchObject({ id: m.partId, machineId: m.machineId, locationId: cloud.init.location_id, primaryOrgId: cloud.init.organization_id, secret: "" });
    expect(config?.cloud?.fqdn).toMatch(/^config-reader-main\.main-[0-9a-f]{8}\.localhost$/);
    expect(config?.cloud?.localFqdn).toBe(config!.cloud!.fqdn.replace(/\.localhost$/, ".local.localhost"));
    expect(JSON.stringify(config, (_k, v) => (typeof v === "bigint" ? String(v) : v))).not.toContain(m.partKey.key);
    const part = await db().selectFrom("parts").select("last_access").where("id", "=", m.partId).executeTakeFirstOrThrow();
    expect(Number(part.last_access)).toBe(cloud.clock.now());
  });

  it("answers the organisation's key too, without counting it as the part's access", async () => {
    const m = await machine("org-reads");
    const org = await signedInClient(RobotService, cloud.url, cloud.init.api_key);
    expect((await org.config({ id: m.partId })).config?.cloud?.id).toBe(m.partId);
    expect((await db().selectFrom("parts").select("last_access").where("id", "=", m.partId).executeTakeFirstOrThrow()).last_access).toBeNull();
  });

  it("refuses no token, another part's key, an unknown part and a revoked key", async () => {
    const a = await machine("hostile-a");
    const b = await machine("hostile-b");
    const anonymous = createClient(RobotService, cloudTransport(cloud.url));
    await expect(anonymous.config({ id: a.partId })).rejects.toThrow(/\[unauthenticated\]/);
    await expect(b.robot.config({ id: a.partId })).rejects.toThrow(new RegExp(`\\[not_found\\] part ${a.partId} not found`));
    await expect(b.robot.needsRestart({ id: a.partId })).rejects.toThrow(/\[not_found\]/);
    await expect(b.robot.certificate({ id: a.partId })).rejects.toThrow(/\[not_found\]/);
    await expect(a.robot.config({ id: "no-such-part" })).rejects.toThrow(/\[not_found\]/);
    await revokeApiKey(db(), a.partKey.id, cloud.clock.now());
    await expect(a.robot.config({ id: a.partId })).rejects.toThrow(/\[unauthenticated\] the API key of this token was revoked/);
  });
});

describe("RobotService.NeedsRestart", () => {
  it("tells a requested restart once, with Viam's 5 s check interval; a person asking does not take it", async () => {
    const m = await machine("restarts");
    const first = await m.robot.needsRestart({ id: m.partId });
    expect(first).toMatchObject({ id: m.partId, mustRestart: false, restartCheckInterval: { seconds: 5n } });
    await db().updateTable("parts").set({ restart_requested: 1 }).where("id", "=", m.partId).execute();
    const org = await signedInClient(RobotService, cloud.url, cloud.init.api_key);
    expect((await org.needsRestart({ id: m.partId })).mustRestart).toBe(true);
    expect((await m.robot.needsRestart({ id: m.partId })).mustRestart).toBe(true);
    expect((await m.robot.needsRestart({ id: m.partId })).mustRestart).toBe(false);
  });
});

describe("RobotService.Certificate and GET /ca.pem", () => {
  it("issues the part a certificate for its names that openssl verifies against the downloadable CA", async () => {
    requireTools("openssl");
    const m = await machine("certified");
    const { config } = await m.robot.config({ id: m.partId });
    const answer = await m.robot.certificate({ id: m.partId });
    expect(answer.id).toBe(m.partId);
    expect(answer.tlsPrivateKey).toMatch(/^-----BEGIN PRIVATE KEY-----/);
    const ca = await fetch(`${cloud.url}/ca.pem`);
    expect(ca.status).toBe(200);
    expect(ca.headers.get("content-type")).toBe("application/x-pem-file");
    writeFileSync(join(scratch, "ca.pem"), await ca.text());
    writeFileSync(join(scratch, "part.pem"), answer.tlsCertificate);
    writeFileSync(join(scratch, "part.key"), answer.tlsPrivateKey);
    const verified = execFileSync("openssl", ["verify", "-CAfile", join(scratch, "ca.pem"), "-purpose", "sslserver", join(scratch, "part.pem")], { encoding: "utf8" });
    expect(verified.trim()).toBe(`${join(scratch, "part.pem")}: OK`);
    const names = execFileSync("openssl", ["x509", "-in", join(scratch, "part.pem"), "-noout", "-ext", "subjectAltName"], { encoding: "utf8" });
    expect(names).toContain(`DNS:${config!.cloud!.fqdn}`);
    expect(names).toContain(`DNS:${config!.cloud!.localFqdn}`);
    // The key is the certificate's own.
    const modulus = (args: string[]) => execFileSync("openssl", args, { encoding: "utf8" }).trim();
    expect(modulus(["x509", "-in", join(scratch, "part.pem"), "-noout", "-modulus"])).toBe(modulus(["rsa", "-in", join(scratch, "part.key"), "-noout", "-modulus"]));
    // Asked again, the same certificate, while its names stay the same.
    expect((await m.robot.certificate({ id: m.partId })).tlsCertificate).toBe(answer.tlsCertificate);
  });

  it("gives a data folder made without an authority one at its first start, and keeps it", async () => {
    const dataDir = join(scratch, "older");
    const store = await openStore(dataDir);
    expect(await store.db.selectFrom("certificate_authority").selectAll().execute()).toEqual([]);
    await store.close();
    const pems: string[] = [];
    for (let start = 0; start < 2; start++) {
      const server = await startCloudServer({ dataDir, host: "localhost", port: 0, clock: createManualClock(Date.UTC(2026, 0, 1)), log: () => undefined });
      try {
        pems.push(await (await fetch(`http://localhost:${server.port}/ca.pem`)).text());
      } finally {
        await server.close();
      }
    }
    expect(pems[0]).toMatch(/^-----BEGIN CERTIFICATE-----/);
    expect(pems[1]).toBe(pems[0]);
  });

  it("gives the private key to the part's own key only", async () => {
    const m = await machine("key-kept");
    const org = await signedInClient(RobotService, cloud.url, cloud.init.api_key);
    await expect(org.certificate({ id: m.partId })).rejects.toThrow(/\[permission_denied\] a part's certificate and key are given to the part's own key only/);
  });
});

describe("GET /api/json1/config", () => {
  const get = (partId: string, keyId: string, key: string) => fetch(`${cloud.url}/api/json1/config?client=true&id=${encodeURIComponent(partId)}`, { headers: { key_id: keyId, key } });

  it("answers the part's credentials file for its own key", async () => {
    const m = await machine("installer");
    const res = await get(m.partId, m.partKey.id, m.partKey.key);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ cloud: { id: m.partId, api_key: m.partKey, app_address: cloud.url } });
  });

  it("answers 401 with a clear JSON error for a wrong key, another part's key, an organisation key and a revoked key", async () => {
    const a = await machine("installer-a");
    const b = await machine("installer-b");
    const refusals = [
      [a.partId, a.partKey.id, "x".repeat(32)],
      [a.partId, b.partKey.id, b.partKey.key],
      [a.partId, cloud.init.api_key.id, cloud.init.api_key.key],
      ["no-such-part", a.partKey.id, a.partKey.key],
    ] as const;
    for (const [partId, keyId, key] of refusals) {
      const res = await get(partId, keyId, key);
      expect(res.status).toBe(401);
      expect(await res.json()).toEqual({ error: "invalid credentials: key_id and key must be a live key of this part" });
    }
    await revokeApiKey(db(), a.partKey.id, cloud.clock.now());
    expect((await get(a.partId, a.partKey.id, a.partKey.key)).status).toBe(401);
    const missing = await fetch(`${cloud.url}/api/json1/config?client=true&id=${a.partId}`);
    expect(missing.status).toBe(400);
    expect(((await missing.json()) as { error: string }).error).toMatch(/key_id and key headers/);
  });
});
