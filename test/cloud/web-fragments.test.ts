// Fragments in svc-cloud's web app, in headless Chromium: a fragment made by name, edited in the
// same editor and validator as a part's config (and refused `cloud`), the parts that use it listed
// with their overrides, and one save reaching both parts that use it as a new revision of each;
// removing it is refused while parts use it. Screenshots in test/artifacts/cloud-web/.
import { chromium, type Browser, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AppService } from "../../proto/gen/app/v1/app_pb.js";
import { RobotService } from "../../proto/gen/app/v1/robot_pb.js";
import { signedInClient } from "../helpers/cloud-client.js";
import { pasteConfig, screenshots, signInAt } from "../helpers/cloud-browser.js";
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
  browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: ["--no-sandbox", "--headless"] });
});
afterAll(async () => {
  await browser?.close();
  await cloud?.stop();
});

describe("fragments in the web app", () => {
  it("makes a fragment, lists the parts using it, and one save gives both a new revision", async () => {
    const app = await signedInClient(AppService, cloud.url, cloud.init.api_key);
    const page = await browser.newPage();
    await signInAt(page, `${cloud.url}/#/fragments`, OWNER);
    await page.getByRole("form", { name: "New fragment" }).getByLabel("New fragment").fill("lights");
    await page.getByRole("button", { name: "Create" }).click();
    await page.getByRole("heading", { name: "lights" }).waitFor();
    const fragmentId = /#\/fragment\/(.+)$/.exec(page.url())![1]!;

    // The same validator as a part's config, and cloud refused.
    const lamp = { name: "lamp", api: "rdk:component:sensor", model: "fake", attributes: { readings: { lux: 1 } } };
    const region = page.getByRole("region", { name: "Fragment config" });
    await pasteConfig(page, "Fragment config", JSON.stringify({ components: [lamp], cloud: { id: "x" } }, null, 2));
    const problems = region.getByRole("list", { name: "Config problems" });
    await expect.poll(() => problems.locator("li.error").allTextContents()).toEqual(expect.arrayContaining([expect.stringMatching(/^line \d+: cloud: a fragment cannot set cloud/)]));
    expect(await region.getByRole("button", { name: "Save" }).isDisabled()).toBe(true);
    await pasteConfig(page, "Fragment config", JSON.stringify({ components: [lamp] }, null, 2));
    await expect.poll(() => problems.count()).toBe(0);
    await region.getByRole("button", { name: "Save" }).click();
    await page.getByText("Revision 2.").waitFor();

    // Two parts take it up, one with an override of its own.
    const mods = [{ $set: { "components.lamp.attributes.readings": { lux: 9 } } }];
    await app.updateRobotPart({ id: rover.cloud.id, name: "", robotConfig: { fragments: [fragmentId], fragment_mods: [{ fragment_id: fragmentId, mods }] } });
    await app.updateRobotPart({ id: arm.cloud.id, name: "", robotConfig: { fragments: [fragmentId] } });
    const revisions = async (id: string) => (await app.getRobotPartHistory({ id })).history.length;
    const before = { rover: await revisions(rover.cloud.id), arm: await revisions(arm.cloud.id) };
    await page.reload();
    const users = page.getByRole("region", { name: "Parts using it" });
    await expect.poll(() => users.locator("tbody tr").count()).toBe(2);
    expect(await users.locator("tr", { hasText: "rover-main" }).locator("code").textContent()).toBe(JSON.stringify(mods));
    expect(await users.locator("tr", { hasText: "arm-main" }).locator("td").nth(3).textContent()).toBe("none");

    // One save of the fragment: a second sensor beside the lamp.
    const fan = { name: "fan", api: "rdk:component:sensor", model: "fake" };
    await pasteConfig(page, "Fragment config", JSON.stringify({ components: [lamp, fan] }, null, 2));
    await expect.poll(() => region.getByRole("button", { name: "Save" }).isEnabled()).toBe(true);
    await screenshots(page, "14-fragment");
    await region.getByRole("button", { name: "Save" }).click();

    // Both parts have a new revision, and each machine's config has both (the rover's lamp with its override).
    await expect.poll(() => revisions(rover.cloud.id)).toBe(before.rover + 1);
    expect(await revisions(arm.cloud.id)).toBe(before.arm + 1);
    const configOf = async (machine: MachineCredentials) => (await (await signedInClient(RobotService, cloud.url, machine.cloud.api_key)).config({ id: machine.cloud.id })).config!;
    expect((await configOf(arm)).components.map((c) => [c.name, c.attributes])).toEqual([["lamp", { readings: { lux: 1 } }], ["fan", undefined]]);
    expect((await configOf(rover)).components.map((c) => [c.name, c.attributes])).toEqual([["lamp", { readings: { lux: 9 } }], ["fan", undefined]]);

    // Removing it while parts use it is refused, saying who uses it.
    await page.getByRole("button", { name: "Remove fragment" }).click();
    await expect.poll(() => page.getByRole("alert").first().textContent()).toMatch(/is in use by part/);

    await page.goto(`${cloud.url}/#/fragments`);
    const list = page.getByRole("region", { name: "Fragments" });
    await expect.poll(() => list.locator("tr", { hasText: "lights" }).locator("td").nth(1).textContent()).toBe("2");
    await screenshots(page, "14-fragments");
  });
});

