// The control page of a machine with API keys, in headless Chromium: it asks for a key before
// showing anything, says why a wrong key is refused, and with a right one shows the machine and
// its logs (which need the token the key gives). Screenshots in test/artifacts/server-page/.
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fakeMachine, launchChromium, localPageUrl, openPage, pageScreenshots } from "../../helpers/page-browser.js";
import { startSvcServer, type SvcServerProcess } from "../../helpers/svc-server-process.js";

const KEY = { id: "bench-key", key: "a-long-enough-key-value-for-the-bench" };
let server: SvcServerProcess;
let browser: Browser;

beforeAll(async () => {
  server = await startSvcServer(fakeMachine({ auth: { handlers: [{ type: "api-key", config: { [KEY.id]: KEY.key, keys: [KEY.id] } }] } }), { startTimeoutMs: 30_000 });
  browser = await launchChromium();
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

describe("logging in to the control page", () => {
  it("asks for an API key, and refuses a wrong one saying so", async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    await page.goto(localPageUrl(server.url));
    const form = page.getByRole("form", { name: "Log in" });
    await form.waitFor();
    expect(await page.getByRole("region", { name: "Status" }).count()).toBe(0);
    await pageScreenshots(page, "10-login");
    await page.getByLabel("API key ID").fill(KEY.id);
    await page.getByLabel("API key", { exact: true }).fill("not-the-key");
    await page.getByRole("button", { name: "Log in" }).click();
    await expect.poll(() => page.getByRole("alert").textContent()).toBe("login refused: invalid credentials");
    expect(await page.getByRole("region", { name: "Status" }).count()).toBe(0);
    await page.close();
  });

  it("with the right key shows the machine, its readings and its logs", async () => {
    const page = await openPage(browser, localPageUrl(server.url), KEY);
    const readings = page.getByRole("region", { name: "temp card" }).getByRole("table", { name: "temp readings" });
    await expect.poll(() => readings.getByRole("row", { name: /celsius/ }).locator("td").textContent()).toBe("21.500");
    const logs = page.getByRole("region", { name: "Logs" });
    await expect.poll(async () => (await logs.locator("td.message").allTextContents()).some((m) => m.startsWith("serving"))).toBe(true);
    await expect.poll(() => page.getByRole("region", { name: "Status" }).getByLabel("Config origin").textContent()).toBe(`the file ${server.configFile}`);
    await pageScreenshots(page, "11-logged-in");
    await page.close();
  });
});
