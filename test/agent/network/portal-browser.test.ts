// The captive portal page in headless Chromium, as a person on a phone uses it: the device's
// name, the networks nearby, errors next to their field, "Connecting..." and the outcome.
// Screenshots of each step are kept in test/artifacts/portal/.
import { mkdirSync } from "node:fs";
import { chromium, type Browser, type Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { startPortalFixture, type PortalFixture } from "./portal-fixture.js";

const ARTIFACTS = "test/artifacts/portal";
let browser: Browser;
let portal: PortalFixture | undefined;

beforeAll(async () => {
  mkdirSync(ARTIFACTS, { recursive: true });
  browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: ["--no-sandbox", "--headless"] });
});
afterAll(async () => {
  await browser?.close();
});
afterEach(async () => {
  await portal?.stop();
  portal = undefined;
});

async function phonePage(javaScriptEnabled = true): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 }, javaScriptEnabled });
  return context.newPage();
}

function shot(page: Page, name: string): Promise<Buffer> {
  return page.screenshot({ path: `${ARTIFACTS}/${name}.png`, fullPage: true });
}

describe("captive portal page", () => {
  it("shows the device and the networks, checks the form, submits and shows success", async () => {
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => (release = resolve));
    portal = await startPortalFixture({
      async submit(request) {
        portal!.submitted.push(request);
        await gate;
        return { ok: true };
      },
    });
    const page = await phonePage();
    const errors: string[] = [];
    page.on("pageerror", (err) => errors.push(err.message));
    page.on("console", (msg) => msg.type() === "error" && errors.push(msg.text()));
    // A phone's sign-in sheet opens whatever URL it probed; the page must come up there too.
    await page.goto(`${portal.url}/generate_204`);
    await expect.poll(() => page.locator("#manufacturer").textContent()).toBe("Acme Robotics");
    expect(await page.locator("#model").textContent()).toBe("Rover 3");
    expect(await page.locator("a.network .ssid").allTextContents()).toEqual(["Home Net", "Café <Libre>", "Office", "Neighbour"]);
    expect(await page.locator('a.network[data-ssid="Home Net"] .lock').count()).toBe(1);
    expect(await page.locator('a.network[data-ssid="Café <Libre>"] .lock').count()).toBe(0);
    expect(await page.locator("#part_id").count()).toBe(0);
    await shot(page, "01-loaded");

    await page.click("#connect");
    expect(await page.locator("#ssid-error").isVisible()).toBe(true);
    expect(await page.locator("#ssid-error").textContent()).toBe("Enter the network name (SSID).");
    await shot(page, "02-empty-ssid");

    await page.click('a.network[data-ssid="Home Net"]');
    expect(await page.inputValue("#ssid")).toBe("Home Net");
    expect(await page.locator("#ssid-error").isVisible()).toBe(false);
    await page.fill("#psk", "short");
    await page.click("#connect");
    expect(await page.locator("#psk-error").isVisible()).toBe(true);
    expect(await page.locator("#psk-error").textContent()).toMatch(/too short/);
    await shot(page, "03-short-password");
    expect(portal.submitted).toEqual([]);

    await page.fill("#psk", "correct horse battery");
    await page.click("#connect");
    await expect.poll(() => page.locator("#result").textContent()).toBe("Connecting…");
    expect(await page.locator("#connect").isDisabled()).toBe(true);
    await shot(page, "04-connecting");
    release();
    await expect.poll(() => page.locator("#result.success").textContent()).toMatch(/connecting to “Home Net”/);
    await shot(page, "05-success");
    expect(portal.submitted).toEqual([{ ssid: "Home Net", psk: "correct horse battery" }]);
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it("shows the connection error when the submit fails", async () => {
    portal = await startPortalFixture();
    portal.submitAnswers.push({ ok: false, error: "Could not join “Home Net”: wrong password" });
    const page = await phonePage();
    await page.goto(portal.url);
    await page.fill("#ssid", "Home Net");
    await page.fill("#psk", "not the password");
    await page.click("#connect");
    await expect.poll(() => page.locator("#result.error").textContent()).toBe("Could not join “Home Net”: wrong password");
    await shot(page, "06-connection-error");
    expect(await page.locator("#connect").isDisabled()).toBe(false);
    await page.context().close();
  });

  it("asks for machine credentials when the device has none, then saves them with the network", async () => {
    portal = await startPortalFixture({ needsCredentials: true });
    const page = await phonePage();
    await page.goto(portal.url);
    await page.click('a.network[data-ssid="Café <Libre>"]');
    await page.click("#connect");
    expect(await page.locator("#part_id-error").textContent()).toBe("Enter the part ID.");
    await page.fill("#part_id", "part-123");
    await page.fill("#api_key_id", "key-id-9");
    await page.fill("#api_key", "secret-key");
    await shot(page, "07-credentials");
    await page.click("#connect");
    await expect.poll(() => page.locator("#result.success").count()).toBe(1);
    expect(portal.savedCredentials).toEqual([{ partId: "part-123", apiKeyId: "key-id-9", apiKey: "secret-key" }]);
    expect(portal.submitted).toEqual([{ ssid: "Café <Libre>", psk: "" }]);
    await page.context().close();
  });

  it("shows the fragment the device will use", async () => {
    portal = await startPortalFixture({ needsCredentials: true, fragmentId: "7b1e-fragment" });
    const page = await phonePage();
    await page.goto(portal.url);
    expect(await page.locator("#fragment code").textContent()).toBe("7b1e-fragment");
    expect(await page.locator("#part_id").isVisible()).toBe(false);
    await shot(page, "08-fragment");
    await page.context().close();
  });

  it("works without JavaScript: the form posts to the device and the answer shows the error or success", async () => {
    portal = await startPortalFixture();
    const page = await phonePage(false);
    await page.goto(`${portal.url}/hotspot-detect.html`);
    await page.click('a.network[data-ssid="Neighbour"]');
    expect(await page.inputValue("#ssid")).toBe("Neighbour");
    await page.fill("#psk", "short");
    await page.click("#connect");
    expect(await page.locator("#psk-error").textContent()).toMatch(/too short/);
    await page.fill("#psk", "long enough now");
    await page.click("#connect");
    expect(await page.locator("#result.success").textContent()).toMatch(/connecting to “Neighbour”/);
    await shot(page, "09-no-javascript");
    expect(portal.submitted).toEqual([{ ssid: "Neighbour", psk: "long enough now" }]);
    await page.context().close();
  });
});
