// docs/cloud.md "Provisioning keys" runs as written against the real svc-cloud: the script makes a
// provisioning key for the fragment `rover-base` with the organisation key `init` printed, and the
// curl command makes `rover-7` with it, whose credentials then run the fragment's sensor.
import { spawnSync } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AppService } from "../../proto/gen/app/v1/app_pb.js";
import { RobotService } from "../../proto/gen/app/v1/robot_pb.js";
import { signedInClient } from "../helpers/cloud-client.js";
import { startCloud, type CloudProcess, type MachineCredentials } from "../helpers/cloud-process.js";
import { guideBlocks, repositoryRoot } from "../helpers/guide.js";
import { makeGuideHome, runBlock } from "../helpers/guide-shell.js";
import { requireTools } from "../helpers/system-tools.js";

const home = makeGuideHome("svc-guide-cloud-provisioning-");
let cloud: CloudProcess;
beforeAll(async () => {
  cloud = await startCloud();
});
afterAll(async () => {
  await cloud?.stop();
  home.remove();
});

describe('docs/cloud.md, "Provisioning keys"', () => {
  const blocks = guideBlocks("docs/cloud.md", "Provisioning keys");

  it("has the script and the command this test runs", () => {
    expect(blocks.map((b) => b.lang)).toEqual(["js", "sh"]);
  });

  it("makes a provisioning key, and with it rover-7 running the fragment", async () => {
    requireTools("curl");
    const app = await signedInClient(AppService, cloud.url, cloud.init.api_key);
    const sensor = { name: "temp", api: "rdk:component:sensor", model: "fake" };
    const { fragment } = await app.createFragment({ organizationId: cloud.init.organization_id, name: "rover-base", config: { components: [sensor] } as never });

    // Evaluated from the repository, where @viamrobotics/sdk is installed, as the text says.
    const script = spawnSync(process.execPath, ["--input-type=module", "-e", blocks[0]!.text], {
      cwd: repositoryRoot,
      encoding: "utf8",
      timeout: 60_000,
      env: { PATH: process.env.PATH ?? "", SVC_CLOUD: cloud.url, KEY_ID: cloud.init.api_key.id, KEY: cloud.init.api_key.key },
    });
    expect(script.status, script.stderr).toBe(0);
    const made = JSON.parse(script.stdout) as { key_id: string; key: string; fragment_id: string };
    expect(made.fragment_id).toBe(fragment!.id);

    const env = `SVC_CLOUD='${cloud.url}' PROVISIONING_KEY_ID='${made.key_id}' PROVISIONING_KEY='${made.key}' FRAGMENT_ID='${made.fragment_id}'\n`;
    const run = runBlock(env + blocks[1]!.text, home);
    expect(run.code, run.stderr).toBe(0);
    const creds = JSON.parse(run.stdout) as MachineCredentials;
    expect(creds.cloud.app_address).toBe(cloud.url);
    const robots = await app.listRobots({ locationId: cloud.init.location_id });
    expect(robots.robots.map((r) => r.name)).toEqual(["rover-7"]);
    const device = await signedInClient(RobotService, cloud.url, creds.cloud.api_key);
    expect((await device.config({ id: creds.cloud.id })).config!.components.map((c) => c.name)).toEqual(["temp"]);
  }, 90_000);
});
