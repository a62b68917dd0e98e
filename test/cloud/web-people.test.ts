// People in the web app, in headless Chromium: the owner invites a viewer, who opens the link in
// their own browser, chooses a password and is signed in; the viewer sees the fleet and a part
// but cannot change it (the server refuses, the page says why); made an operator by the owner,
// the same person can. Screenshots in test/artifacts/cloud-web/.
import { chromium, type Browser, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { pasteConfig, screenshots, signInAt } from "../helpers/cloud-browser.js";
import { startCloud, type CloudProcess } from "../helpers/cloud-process.js";

const OWNER = { email: "owner@example.com", password: "correct horse battery" };
const VIEWER = { email: "viewer@example.com", password: "a viewer's password" };
let browser: Browser;
let cloud: CloudProcess;

beforeAll(async () => {
  cloud = await startCloud(OWNER);
  cloud.createMachine("rover");
  browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: ["--no-sandbox", "--headless"] });
});
afterAll(async () => {
  await browser?.close();
  await cloud?.stop();
});

async function signedIn(who: { email: string; password: string }): Promise<Page> {
  const page = await (await browser.newContext()).newPage();
  await signInAt(page, cloud.url, who);
  await page.getByRole("region", { name: "Fleet" }).waitFor();
  return page;
}

describe("people in the web app", () => {
  it("invites a viewer, who joins and cannot change a part until made an operator", async () => {
    const owner = await signedIn(OWNER);
    await owner.getByRole("link", { name: "People" }).click();
    const people = owner.getByRole("region", { name: "People of svc" });
    await people.getByLabel("Email").fill(VIEWER.email);
    await people.getByRole("button", { name: "Invite" }).click();
    const link = (await people.locator("code.invitation").textContent())!;
    expect(link).toMatch(new RegExp(`^${cloud.url}/#/invite/[a-z0-9]{64}$`));
    await screenshots(owner, "6-invited");

    const viewer = await (await browser.newContext()).newPage();
    await viewer.goto(link);
    await viewer.getByLabel("Password").fill(VIEWER.password);
    await viewer.getByRole("button", { name: "Join" }).click();
    await viewer.getByRole("region", { name: "Fleet" }).getByRole("cell", { name: "rover", exact: true }).waitFor();
    expect(await viewer.locator("header .who").textContent()).toBe(VIEWER.email);

    await viewer.getByRole("link", { name: "rover-main" }).click();
    await viewer.getByRole("button", { name: "Restart" }).click();
    await expect.poll(() => viewer.getByRole("alert").textContent()).toMatch(/needs the operator role \(the caller is viewer\)/);
    // The editor lets a viewer try; svc-cloud refuses the save and the config stays as it was.
    await pasteConfig(viewer, "Config", JSON.stringify({ debug: true }));
    await viewer.getByRole("region", { name: "Config" }).getByRole("button", { name: "Save" }).click();
    await expect.poll(() => viewer.getByRole("region", { name: "Config" }).getByRole("alert").textContent()).toMatch(/needs the operator role \(the caller is viewer\)/);
    await screenshots(viewer, "7-viewer-refused");

    await owner.reload();
    await owner.getByLabel(`Role of ${VIEWER.email}`).selectOption("ROLE_OPERATOR");
    await expect.poll(() => owner.getByLabel(`Role of ${VIEWER.email}`).inputValue()).toBe("ROLE_OPERATOR");

    await viewer.reload();
    await viewer.getByRole("button", { name: "Restart" }).click();
    const restartStatus = viewer.locator("p", { has: viewer.getByRole("button", { name: "Restart" }) }).getByRole("status");
    await expect.poll(() => restartStatus.textContent()).toMatch(/^Restart requested/);

    // The link was for one person, once.
    const again = await (await browser.newContext()).newPage();
    await again.goto(link);
    await again.getByLabel("Password").fill("someone else's password");
    await again.getByRole("button", { name: "Join" }).click();
    await expect.poll(() => again.getByRole("alert").textContent()).toMatch(/invitation/);
  });
});
