// Editing the machine's configuration file on its control page, in headless Chromium: the core's
// validator checks the text as it is typed and keeps a broken one from being saved, saying where it
// is wrong; a good one is saved and the machine, which follows its file, runs it (a new resource
// gets its card); the text it replaced is kept as the last good file. Screenshots in
// test/artifacts/server-page/.
import { readFileSync } from "node:fs";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { pasteConfig } from "../../helpers/cloud-browser.js";
import { fakeMachine, launchChromium, localPageUrl, openPage, pageScreenshots } from "../../helpers/page-browser.js";
import { startSvcServer, type SvcServerProcess } from "../../helpers/svc-server-process.js";

let server: SvcServerProcess;
let browser: Browser;
let page: Page;

beforeAll(async () => {
  server = await startSvcServer(fakeMachine(), { startTimeoutMs: 30_000 });
  browser = await launchChromium();
  page = await openPage(browser, localPageUrl(server.url));
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

describe("the configuration on the control page", () => {
  it("checks the text as it is typed and keeps a broken one from being saved, saying where", async () => {
    const section = page.getByRole("region", { name: "Configuration" });
    await section.locator(".cm-content").waitFor();
    const before = readFileSync(server.configFile, "utf8");
    await pasteConfig(page, "Configuration", JSON.stringify({ components: [{ name: "wheel", api: "rdk:component:motor" }] }, null, 2));
    const problems = section.getByRole("list", { name: "Config problems" });
    await expect.poll(() => problems.textContent()).toContain("components[0].model: is required");
    expect(await section.getByRole("button", { name: "Save" }).isDisabled()).toBe(true);
    await section.scrollIntoViewIfNeeded();
    await pageScreenshots(page, "20-config-problems");
    expect(readFileSync(server.configFile, "utf8")).toBe(before);
  });

  it("saves a good text, which the machine runs, keeping the one it replaced", async () => {
    const section = page.getByRole("region", { name: "Configuration" });
    const before = readFileSync(server.configFile, "utf8");
    const next = fakeMachine({ network: { bind_address: "localhost:0" } });
    (next.components as object[]).push({ name: "extra", api: "rdk:component:sensor", model: "fake", attributes: { readings: { lux: 300 } } });
    const text = JSON.stringify(next, null, 2);
    await pasteConfig(page, "Configuration", text);
    await expect.poll(() => section.getByRole("button", { name: "Save" }).isDisabled()).toBe(false);
    await section.getByRole("button", { name: "Save" }).click();
    await expect.poll(() => section.getByRole("status").textContent()).toBe(`Saved to ${server.configFile}; the machine applies it now.`);
    expect(readFileSync(server.configFile, "utf8")).toBe(text);
    expect(readFileSync(`${server.configFile}.last-good`, "utf8")).toBe(before);
    const extra = page.getByRole("region", { name: "extra card" }).getByRole("table", { name: "extra readings" });
    await expect.poll(() => extra.getByRole("row", { name: /lux/ }).locator("td").textContent(), { timeout: 20_000 }).toBe("300");
  });
});
