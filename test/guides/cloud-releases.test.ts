// docs/cloud.md "Releases and versions" runs as written, in a fresh home folder: npm run package
// builds a release, and release add imports it into an initialised data folder.
import { existsSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { guideBlocks } from "../helpers/guide.js";
import { makeGuideHome, runBlock } from "../helpers/guide-shell.js";

const home = makeGuideHome("svc-guide-releases-");
afterAll(() => home.remove());

describe('docs/cloud.md, "Releases and versions"', () => {
  const blocks = guideBlocks("docs/cloud.md", "Releases and versions");

  it("has the steps this test runs, in order", () => {
    expect(blocks.map((b) => b.lang)).toEqual(["sh", "sh"]);
  });

  it("packages a release and imports it", () => {
    const init = runBlock('node dist/linux/svc-cloud.mjs init --data "$HOME/svc-cloud"', home);
    expect(init.code, init.stderr).toBe(0);
    const packaged = runBlock(blocks[0]!.text, home);
    expect(packaged.code, packaged.stderr).toBe(0);
    const added = runBlock(blocks[1]!.text, home);
    expect(added.code, added.stderr).toBe(0);
    const result = JSON.parse(added.stdout);
    expect(result.channels).toEqual([
      { product: "svc-server", channel: "stable", version: "1.4.0" },
      { product: "agent", channel: "stable", version: "1.4.0" },
    ]);
    expect(existsSync(join(home.dir, "svc-cloud/releases/svc-server-1.4.0-linux-amd64.tar.gz"))).toBe(true);
    expect(existsSync(join(home.dir, "svc-cloud/releases/svc-agent-1.4.0-linux-amd64.tar.gz"))).toBe(true);
  }, 120_000);
});
