// Markup reaching the control page is shown as text, never made into elements: in a resource's
// error (a reference written as an <img> tag with a script in it), in the log messages and the
// configuration problems that name an entry written as markup, in a DoCommand's answer and in
// the configuration's text. Nothing is injected and no script runs.
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchChromium, localPageUrl, openPage, pageScreenshots } from "../../helpers/page-browser.js";
import { startSvcServer, type SvcServerProcess } from "../../helpers/svc-server-process.js";

const IMG = "<img src=x onerror=window.injected=1>";
const BOLD = "<b id=injected>bold</b>";
let server: SvcServerProcess;
let browser: Browser;

beforeAll(async () => {
  server = await startSvcServer(
    {
      components: [
        { name: "board", api: "rdk:component:board", model: "fake" },
        { name: "wheel", api: "rdk:component:motor", model: "gpio", attributes: { board: IMG, pins: { pwm: "12", dir: "16" }, max_rpm: 100 } },
        { name: BOLD, api: "rdk:component:sensor", model: "fake" },
        { name: "thing", api: "rdk:component:generic", model: "fake" },
      ],
    },
    { startTimeoutMs: 30_000 },
  );
  browser = await launchChromium();
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

describe("markup on the control page", () => {
  it("shows errors, log messages, answers and the configuration as text, injecting nothing", async () => {
    const page = await openPage(browser, localPageUrl(server.url));
    const status = page.getByRole("region", { name: "Status" });
    const wheel = status.getByRole("table", { name: "Resource states" }).getByRole("row", { name: /^wheel/ }).locator("td.error");
    await expect.poll(() => wheel.textContent()).toContain(IMG);
    const logs = page.getByRole("region", { name: "Logs" });
    await logs.getByLabel("Level").selectOption("warn");
    await expect.poll(async () => (await logs.locator("td.message").allTextContents()).some((m) => m.includes(BOLD))).toBe(true);
    await expect.poll(async () => (await logs.locator("td.message").allTextContents()).some((m) => m.includes(IMG))).toBe(true);
    const thing = page.getByRole("region", { name: "thing card" });
    await thing.getByText("DoCommand").click();
    await thing.getByLabel("Command (JSON)").fill(JSON.stringify({ echo: IMG }));
    await thing.getByRole("button", { name: "Send" }).click();
    await expect.poll(() => thing.getByLabel("thing answer").textContent()).toContain(IMG);
    await page.getByRole("region", { name: "Configuration" }).locator(".cm-content").waitFor();
    await pageScreenshots(page, "30-markup-as-text");
    expect(await page.locator('img[src="x"], #injected, b').count()).toBe(0);
    expect(await page.evaluate("window.injected")).toBeUndefined();
    await page.close();
  });
});
