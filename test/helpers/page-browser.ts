// svc-server's own control page in headless Chromium, as the page tests and the bench open it: a
// real svc-server with one fake resource of each kind the page has controls for, the page opened
// under a name the server answers to (localhost: gRPC-web; an address: WebRTC), logged in with an
// API key when the machine has them, and screenshots at a desktop's width and a phone's in
// test/artifacts/server-page/, where nothing may run off the side at the phone's.
import { chromium, type Browser, type Page } from "playwright-core";
import { screenshotsIn } from "./cloud-browser.js";
import { requireTools } from "./system-tools.js";

const ARTIFACTS = "test/artifacts/server-page";
const DESKTOP = { width: 1280, height: 800 };

/** A machine of fake resources: one of each kind with controls on the page, and a dependency to draw. */
export function fakeMachine(extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    components: [
      { name: "board", api: "rdk:component:board", model: "fake" },
      { name: "temp", api: "rdk:component:sensor", model: "fake", attributes: { readings: { celsius: 21.5 } } },
      { name: "left", api: "rdk:component:motor", model: "fake", attributes: { max_rpm: 200 } },
      { name: "drive", api: "rdk:component:motor", model: "gpio", attributes: { board: "board", pins: { pwm: "12", dir: "16" }, max_rpm: 100 } },
      { name: "wrist", api: "rdk:component:servo", model: "fake" },
      { name: "imu", api: "rdk:component:movement_sensor", model: "fake" },
      { name: "battery", api: "rdk:component:power_sensor", model: "fake" },
      { name: "cam", api: "rdk:component:camera", model: "fake", attributes: { width: 64, height: 48 } },
      { name: "thing", api: "rdk:component:generic", model: "fake" },
    ],
    ...extra,
  };
}

export async function launchChromium(): Promise<Browser> {
  requireTools("chromium");
  return chromium.launch({ executablePath: "/usr/bin/chromium", args: ["--no-sandbox", "--headless"] });
}

/** The page's address under `localhost` (which the SDK dials directly) for a server at `url`. */
export function localPageUrl(url: string): string {
  return `http://localhost:${new URL(url).port}/`;
}

/** Opens the page at `url`, logs in with `key` when given, and waits for the machine's state. */
export async function openPage(browser: Browser, url: string, key?: { id: string; key: string }): Promise<Page> {
  const page = await browser.newPage({ viewport: DESKTOP });
  await page.goto(url);
  if (key) {
    await page.getByLabel("API key ID").fill(key.id);
    await page.getByLabel("API key", { exact: true }).fill(key.key);
    await page.getByRole("button", { name: "Log in" }).click();
  }
  await page.getByLabel("Machine state").filter({ hasText: "RUNNING" }).waitFor({ timeout: 30_000 });
  return page;
}

/** The control page as it is now at a desktop's and a phone's width, in test/artifacts/server-page. */
export const pageScreenshots = (page: Page, name: string): Promise<void> => screenshotsIn(ARTIFACTS, page, name);
