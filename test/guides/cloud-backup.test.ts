// docs/cloud.md "Backup" runs as written, in a fresh home folder set up by the "First run" steps:
// a backup taken while the service runs, a machine made after it, a restore once the service is
// stopped, and that machine gone when the service starts again on the restored store.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signIn } from "../helpers/cloud-client.js";
import { eventually } from "../helpers/eventually.js";
import { guideBlocks } from "../helpers/guide.js";
import { makeGuideHome, runBlock, startBlock, type RunningBlock } from "../helpers/guide-shell.js";
import { claimPort } from "../helpers/port-claim.js";

const home = makeGuideHome("svc-guide-cloud-backup-");
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

async function serve(text: string): Promise<RunningBlock> {
  const started = startBlock(text, home);
  await eventually(() => (/serving .* on http:\/\/localhost:8090/.test(started.output()) ? true : undefined), "svc-cloud to serve");
  return started;
}

describe('docs/cloud.md, "Backup"', () => {
  const firstRun = guideBlocks("docs/cloud.md", "First run");
  const blocks = guideBlocks("docs/cloud.md", "Backup");

  it("has the steps this test runs, in order", () => {
    expect(blocks.map((b) => b.lang)).toEqual(["sh", "sh"]);
  });

  it("backs up while serving and restores once stopped: what came after the backup is gone", async () => {
    expect(runBlock(firstRun[0]!.text, home).code).toBe(0);
    service = await serve(firstRun[1]!.text);
    const backup = runBlock(blocks[0]!.text, home);
    expect(backup.code, backup.stderr).toBe(0);
    expect(existsSync(join(home.dir, "svc-cloud-backup.db"))).toBe(true);
    // A machine made after the backup.
    expect(runBlock(firstRun[2]!.text, home).code).toBe(0);
    const rover = JSON.parse(readFileSync(join(home.dir, "rover.json"), "utf8"));
    expect(await signIn("http://localhost:8090", rover.cloud.api_key.id, rover.cloud.api_key.key)).toMatch(/^ey/);

    const whileRunning = runBlock(blocks[1]!.text, home);
    expect(whileRunning.code).not.toBe(0);
    expect(whileRunning.stderr).toMatch(/svc-cloud \(PID \d+\) is s/);
    await service.stop();
    const restored = runBlock(blocks[1]!.text, home);
    expect(restored.code, restored.stderr).toBe(0);

    service = await serve(firstRun[1]!.text);
    await expect(signIn("http://localhost:8090", rover.cloud.api_key.id, rover.cloud.api_key.key)).rejects.toThrow(/invalid credentials/);
  }, 180_000);
});
