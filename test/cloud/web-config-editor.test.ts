// Editing a part's config in svc-cloud's web app, in headless Chromium, as an operator does it:
// a mistake is shown on its own line with the very words svc-server's validator uses, and the
// config cannot be saved until it is mended; a save makes a revision the API and history show;
// history diffs a revision against the current config; a save that started before someone else's
// shows their config beside this one and overwrites nothing until asked; the form adds a component
// of a known model with its attributes. Screenshots in test/artifacts/cloud-web/, desktop and phone.
import { chromium, type Browser, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseMachineConfig } from "../../core/index.js";
import { AppService } from "../../proto/gen/app/v1/app_pb.js";
import { signedInClient } from "../helpers/cloud-client.js";
import { pasteConfig, screenshots, signInAt } from "../helpers/cloud-browser.js";
import { startCloud, type CloudProcess, type MachineCredentials } from "../helpers/cloud-process.js";

const OWNER = { email: "owner@example.com", password: "correct horse battery" };
let browser: Browser;
let cloud: CloudProcess;
let rover: MachineCredentials;

beforeAll(async () => {
  cloud = await startCloud(OWNER);
  rover = cloud.createMachine("rover");
  const app = await signedInClient(AppService, cloud.url, cloud.init.api_key);
  await app.updateRobotPart({ id: rover.cloud.id, name: "", robotConfig: { components: [{ name: "temp", api: "rdk:component:sensor", model: "fake" }] } });
  browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: ["--no-sandbox", "--headless"] });
});
afterAll(async () => {
  await browser?.close();
  await cloud?.stop();
});

async function partPage(): Promise<Page> {
  const page = await browser.newPage();
  const faults: string[] = [];
  page.on("pageerror", (error) => faults.push(error.message));
  // The page runs under its Content-Security-Policy: the editor's styles must not be refused.
  page.on("console", (message) => message.type() === "error" && faults.push(message.text()));
  (page as Page & { faults: string[] }).faults = faults;
  await signInAt(page, `${cloud.url}/#/part/${rover.cloud.id}`, OWNER);
  await page.getByRole("region", { name: "Config" }).locator(".cm-content").waitFor();
  return page;
}

const configOf = async (app: Awaited<ReturnType<typeof signedInClient<typeof AppService>>>) =>
  JSON.parse((await app.getRobotPart({ id: rover.cloud.id })).configJson) as { components: { name: string; attributes?: object }[] };


describe("the config editor", () => {
  it("shows a mistake on its line in svc-server's words, refuses to save it, and saves the mended config as a revision", async () => {
    const app = await signedInClient(AppService, cloud.url, cloud.init.api_key);
    const page = await partPage();
    const config = page.getByRole("region", { name: "Config" });
    await expect.poll(() => config.locator(".cm-content").textContent()).toContain('"temp"');

    const broken = `{\n  "components": [\n    {\n      "name": "temp",\n      "api": "rdk:component:sensor",\n      "model": "fake",\n      "frame": 7\n    }\n  ]\n}`;
    await pasteConfig(page, "Config", broken);
    const expected = parseMachineConfig(broken).issues.find((issue) => issue.severity === "error")!;
    expect(expected.path).toBe("components[0].frame");
    const problems = config.getByRole("list", { name: "Config problems" });
    await expect.poll(() => problems.locator("li.error").first().textContent()).toBe(`line 7: ${expected.path}: ${expected.message}`);
    // The mark sits on line 7 itself, under the key the problem names.
    const marked = config.locator(".cm-line", { has: page.locator(".cm-lintRange-error") });
    await expect.poll(() => marked.count()).toBe(1);
    expect(await marked.textContent()).toContain('"frame": 7');
    expect(await config.locator(".cm-line").evaluateAll((lines) => lines.findIndex((line) => line.querySelector(".cm-lintRange-error")) + 1)).toBe(7);
    expect(await config.getByRole("button", { name: "Save" }).isDisabled()).toBe(true);
    await screenshots(page, "10-config-error");

    // Not JSON at all: the place where it breaks.
    await pasteConfig(page, "Config", `{\n  "components": [\n    oops\n  ]\n}`);
    await expect.poll(() => problems.locator("li.error").first().textContent()).toMatch(/^line 3: is not valid JSON: unexpected "o" at line 3, column 5$/);

    const mended = broken.replace(`,\n      "frame": 7`, `,\n      "attributes": { "readings": { "celsius": 21 } }`);
    await pasteConfig(page, "Config", mended);
    await expect.poll(() => problems.count()).toBe(0);
    await config.getByRole("button", { name: "Save" }).click();
    await expect.poll(async () => (await configOf(app)).components[0]!.attributes).toEqual({ readings: { celsius: 21 } });
    const history = page.getByRole("region", { name: "History" });
    await expect.poll(() => history.locator("tbody tr").count()).toBe(3);
    expect(await history.locator("tbody tr td:nth-child(3)").first().textContent()).toBe(OWNER.email);

    // The history's diff: revision 2 beside the current one, the changed line marked.
    await history.getByRole("button", { name: "Diff 2" }).click();
    const diff = history.getByRole("figure", { name: "Revision 2 against the current config" });
    await expect.poll(() => diff.locator("tr.added td.right, tr.changed td.right").allTextContents()).toEqual(expect.arrayContaining([expect.stringContaining('"celsius": 21')]));
    expect(await diff.locator("figcaption").textContent()).toMatch(/lines? differ/);
    await screenshots(page, "11-history-diff");
    // Nothing failed but the signed-out page's first look for a session.
    expect((page as Page & { faults: string[] }).faults.filter((fault) => !fault.includes("401"))).toEqual([]);
  });

  it("shows a conflict beside the config saved meanwhile, and overwrites it only when asked", async () => {
    const app = await signedInClient(AppService, cloud.url, cloud.init.api_key);
    const page = await partPage();
    const config = page.getByRole("region", { name: "Config" });
    const before = (await app.getRobotPart({ id: rover.cloud.id })).configJson;
    // Someone else saves while this page is open.
    await app.updateRobotPart({ id: rover.cloud.id, name: "", robotConfig: { components: [{ name: "theirs", api: "rdk:component:sensor", model: "fake" }] } });

    await pasteConfig(page, "Config", before.replace('"temp"', '"mine"'));
    await config.getByRole("button", { name: "Save" }).click();
    const conflict = config.locator(".conflict");
    await conflict.waitFor();
    const diff = conflict.getByRole("figure", { name: "Conflict" });
    expect(await diff.locator("tr.changed td.left").allTextContents()).toEqual(expect.arrayContaining([expect.stringContaining('"theirs"')]));
    expect(await diff.locator("tr.changed td.right").allTextContents()).toEqual(expect.arrayContaining([expect.stringContaining('"mine"')]));
    expect((await configOf(app)).components.map((c) => c.name)).toEqual(["theirs"]);
    await screenshots(page, "12-config-conflict");

    await conflict.getByRole("button", { name: "Save mine over theirs" }).click();
    await expect.poll(async () => (await configOf(app)).components.map((c) => c.name)).toEqual(["mine"]);
    await expect.poll(() => conflict.count()).toBe(0);
  });

  it("adds a component of a known model through the form, its attributes typed by the model's schema", async () => {
    const app = await signedInClient(AppService, cloud.url, cloud.init.api_key);
    const page = await partPage();
    const config = page.getByRole("region", { name: "Config" });
    const form = page.getByRole("form", { name: "Add a component or service" });
    await form.getByLabel("API").selectOption("rdk:component:servo");
    await form.getByLabel("Model").selectOption("rdk:builtin:fake");
    await form.getByLabel("Name", { exact: true }).fill("pan");
    // The fake servo's schema asks for its limits as numbers.
    const minField = form.getByLabel(/^min_angle_deg/);
    expect(await minField.getAttribute("type")).toBe("number");
    await minField.fill("10");
    await screenshots(page, "13-config-form");
    await form.getByRole("button", { name: "Add" }).click();
    await expect.poll(() => config.locator(".cm-content").textContent()).toContain('"pan"');

    // A second one of the same name is refused by the form before the validator sees it.
    await form.getByLabel("API").selectOption("rdk:component:servo");
    await form.getByLabel("Model").selectOption("rdk:builtin:fake");
    await form.getByLabel("Name", { exact: true }).fill("pan");
    await form.getByRole("button", { name: "Add" }).click();
    await expect.poll(() => form.getByRole("alert").textContent()).toBe("components already has one named pan.");

    await config.getByRole("button", { name: "Save" }).click();
    await expect.poll(async () => (await configOf(app)).components.find((c) => c.name === "pan")).toMatchObject({ api: "rdk:component:servo", model: "rdk:builtin:fake", attributes: { min_angle_deg: 10 } });
  });
});
