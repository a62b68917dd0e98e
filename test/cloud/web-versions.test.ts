// Versions in svc-cloud's web app, in headless Chromium: a location's parts with what each is told to
// install beside what its agent reports running, one change made for the whole location (every
// part's config gets it, the machines are told), and a channel move refused with svc-cloud's reason
// when there is no such release. Screenshots in test/artifacts/cloud-web/.
import { chromium, type Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AgentDeviceService } from "../../proto/gen/app/agent/v1/agent_pb.js";
import { AppService } from "../../proto/gen/app/v1/app_pb.js";
import { signedInClient } from "../helpers/cloud-client.js";
import { screenshots, signInAt } from "../helpers/cloud-browser.js";
import { startCloud, type CloudProcess, type MachineCredentials } from "../helpers/cloud-process.js";

const OWNER = { email: "owner@example.com", password: "correct horse battery" };
let browser: Browser;
let cloud: CloudProcess;
let rover: MachineCredentials;
let arm: MachineCredentials;

beforeAll(async () => {
  cloud = await startCloud(OWNER);
  rover = cloud.createMachine("rover");
  arm = cloud.createMachine("arm");
  // The rover's agent has reported what it runs.
  const agent = await signedInClient(AgentDeviceService, cloud.url, rover.cloud.api_key);
  await agent.deviceAgentConfig({ id: rover.cloud.id, hostInfo: { platform: "linux/arm64" }, versionInfo: { agentRunning: "0.9.0", viamServerRunning: "0.9.1" } });
  browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: ["--no-sandbox", "--headless"] });
});
afterAll(async () => {
  await browser?.close();
  await cloud?.stop();
});

describe("versions in the web app", () => {
  it("shows what each part asks for and runs, and changes the versions of a whole location", async () => {
    const app = await signedInClient(AppService, cloud.url, cloud.init.api_key);
    const page = await browser.newPage();
    await signInAt(page, `${cloud.url}/#/versions`, OWNER);
    const location = page.getByRole("region", { name: /^Versions of / });
    await expect.poll(() => location.locator("tbody tr").count()).toBe(2);
    expect(await location.locator("tr", { hasText: "rover" }).locator("td").allTextContents()).toEqual(["rover", "rover-main", "stable", "0.9.1", "stable", "0.9.0"]);
    expect(await location.locator("tr", { hasText: "arm" }).locator("td").allTextContents()).toEqual(["arm", "arm-main", "stable", "not reported", "stable", "not reported"]);

    await location.getByLabel("svc-server for every part").fill("dev");
    await location.getByRole("button", { name: "Set for the location" }).click();
    await expect.poll(() => location.getByRole("status").textContent()).toBe("2 parts changed; their machines were told.");
    await expect.poll(() => location.locator("tbody tr td:nth-child(3)").allTextContents()).toEqual(["dev", "dev"]);
    for (const machine of [rover, arm]) {
      expect(JSON.parse((await app.getRobotPart({ id: machine.cloud.id })).configJson)).toEqual({ agent: { version_control: { "svc-server": "dev" } } });
    }
    await screenshots(page, "16-location-versions");

    // A refused spec changes nothing and says why.
    await location.getByLabel("svc-agent for every part").fill("not a version!");
    await location.getByRole("button", { name: "Set for the location" }).click();
    await expect.poll(() => location.getByRole("alert").textContent()).toMatch(/no part was changed/);
    expect(await location.locator("tbody tr td:nth-child(5)").allTextContents()).toEqual(["stable", "stable"]);

    // A channel cannot point at a release svc-cloud does not hold.
    const channels = page.getByRole("region", { name: "Release channels" });
    await channels.getByLabel("Version").fill("9.9.9");
    await channels.getByRole("button", { name: "Move channel" }).click();
    await expect.poll(() => channels.getByRole("alert").textContent()).toMatch(/9\.9\.9/);
  });
});
