// svc-cloud's certificate authority is made by `svc-cloud init` (the real command), and served,
// unchanged and without credentials, at GET /ca.pem by the real service.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openStore } from "../../targets/cloud/storage/open-store.js";
import { runCloud, startCloud, type CloudProcess } from "../helpers/cloud-process.js";

let cloud: CloudProcess;
let dataDir: string;
beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), "svc-cloud-ca-"));
  cloud = await startCloud();
});
afterAll(async () => {
  await cloud?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

async function authorities(folder: string) {
  const store = await openStore(folder);
  return store.db.selectFrom("certificate_authority").select("certificate_pem").execute().finally(() => store.close());
}

describe("the certificate authority", () => {
  it("is made by init", async () => {
    expect(runCloud(["init"], dataDir).status).toBe(0);
    const rows = await authorities(dataDir);
    expect(rows).toHaveLength(1);
    expect(rows[0]!.certificate_pem).toMatch(/^-----BEGIN CERTIFICATE-----/);
  });

  it("is downloadable by anyone at /ca.pem", async () => {
    const res = await fetch(`${cloud.url}/ca.pem`);
    expect(res.status).toBe(200);
    expect(await res.text()).toBe((await authorities(cloud.dataDir))[0]!.certificate_pem);
  });
});
