// docs/cloud.md "Machines and parts from a script" runs as written against the real svc-cloud,
// with the organisation key `init` printed: the machine `rover` gets its sensor.
import { spawnSync } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { guideBlocks, repositoryRoot } from "../helpers/guide.js";
import { startCloud, type CloudProcess } from "../helpers/cloud-process.js";

let cloud: CloudProcess;
beforeAll(async () => {
  cloud = await startCloud();
});
afterAll(() => cloud?.stop());

describe('docs/cloud.md, "Machines and parts from a script"', () => {
  const blocks = guideBlocks("docs/cloud.md", "Machines and parts from a script");

  it("has the one script this test runs", () => {
    expect(blocks.map((b) => b.lang)).toEqual(["js"]);
  });

  it("gives rover's main part a sensor", () => {
    const rover = cloud.createMachine("rover");
    // Evaluated from the repository, where @viamrobotics/sdk is installed, as the text says.
    const run = spawnSync(process.execPath, ["--input-type=module", "-e", blocks[0]!.text], {
      cwd: repositoryRoot,
      encoding: "utf8",
      timeout: 60_000,
      env: { PATH: process.env.PATH ?? "", SVC_CLOUD: cloud.url, KEY_ID: cloud.init.api_key.id, KEY: cloud.init.api_key.key },
    });
    expect(run.status, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual({ components: [{ name: "temp", api: "rdk:component:sensor", model: "fake" }] });
    expect(rover.cloud.id).toBeTruthy();
  }, 90_000);
});
