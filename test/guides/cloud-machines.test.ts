// docs/cloud.md "Machines" runs as written against the real svc-cloud: the CA download is a
// certificate, and the credentials-file request answers exactly what `machine create` printed.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startCloud, type CloudProcess } from "../helpers/cloud-process.js";
import { guideBlocks } from "../helpers/guide.js";
import { makeGuideHome, runBlock } from "../helpers/guide-shell.js";
import { requireTools } from "../helpers/system-tools.js";

const home = makeGuideHome("svc-guide-cloud-machines-");
let cloud: CloudProcess;
beforeAll(async () => {
  cloud = await startCloud();
});
afterAll(async () => {
  await cloud?.stop();
  home.remove();
});

describe('docs/cloud.md, "Machines"', () => {
  const blocks = guideBlocks("docs/cloud.md", "Machines");

  it("has the commands this test runs", () => {
    expect(blocks.map((b) => b.lang)).toEqual(["sh", "sh"]);
  });

  it("downloads the CA and fetches a machine's credentials file", () => {
    requireTools("curl");
    const machine = cloud.createMachine("rover");
    const env = `SVC_CLOUD='${cloud.url}' KEY_ID='${machine.cloud.api_key.id}' KEY='${machine.cloud.api_key.key}' PART_ID='${machine.cloud.id}'\ncd "$HOME"\n`;
    const ca = runBlock(env + blocks[0]!.text, home);
    expect(ca.code, ca.stderr).toBe(0);
    expect(readFileSync(join(home.dir, "svc-cloud-ca.pem"), "utf8")).toMatch(/^-----BEGIN CERTIFICATE-----/);
    const credentials = runBlock(env + blocks[1]!.text, home);
    expect(credentials.code, credentials.stderr).toBe(0);
    expect(JSON.parse(credentials.stdout)).toEqual(machine);
  });
});
