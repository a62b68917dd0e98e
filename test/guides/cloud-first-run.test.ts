// docs/cloud.md "First run" runs as written, in a fresh home folder: init prints the organisation,
// the location and a key; the service starts on its default port; a machine made while it runs
// gets a credentials file naming that service.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eventually } from "../helpers/eventually.js";
import { guideBlocks } from "../helpers/guide.js";
import { makeGuideHome, runBlock, startBlock, type RunningBlock } from "../helpers/guide-shell.js";
import { claimPort } from "../helpers/port-claim.js";

const home = makeGuideHome("svc-guide-cloud-");
let givePortBack: (() => Promise<void>) | undefined;
let service: RunningBlock | undefined;

beforeAll(async () => {
  givePortBack = await claimPort(8090);
}, 700_000);
afterAll(async () => {
  await service?.stop();
  await givePortBack?.();
  home.remove();
});

describe('docs/cloud.md, "First run"', () => {
  const blocks = guideBlocks("docs/cloud.md", "First run");

  it("has the steps this test runs, in order", () => {
    expect(blocks.map((b) => b.lang)).toEqual(["sh", "sh", "sh"]);
  });

  it("initialises, serves on localhost:8090 and makes a machine while serving", async () => {
    const init = runBlock(blocks[0]!.text, home);
    expect(init.code, init.stderr).toBe(0);
    expect(Object.keys(JSON.parse(init.stdout)).sort()).toEqual(["api_key", "location_id", "organization_id"]);
    service = startBlock(blocks[1]!.text, home);
    await eventually(() => (/serving .* on http:\/\/localhost:8090/.test(service!.output()) ? true : undefined), "svc-cloud to serve");
    const made = runBlock(blocks[2]!.text, home);
    expect(made.code, made.stderr).toBe(0);
    const credentials = JSON.parse(readFileSync(join(home.dir, "rover.json"), "utf8"));
    expect(credentials.cloud.app_address).toBe("http://localhost:8090");
    expect(credentials.cloud.api_key.key).toMatch(/^[a-z0-9]{32}$/);
  }, 120_000);
});
