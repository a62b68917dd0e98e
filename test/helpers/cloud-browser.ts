// A person signing in to svc-cloud's web app, as the browser tests do it: the page at `url`
// (the app itself, or one of its pages by hash), the sign-in form filled and sent; a config
// pasted into the editor; and a flow's screenshots for people to look at, at a desktop's width and
// a phone's, in test/artifacts/cloud-web/.
import { mkdirSync } from "node:fs";
import type { Page } from "playwright-core";

const ARTIFACTS = "test/artifacts/cloud-web";
const DESKTOP = { width: 1280, height: 720 };
const PHONE = { width: 390, height: 844 };

/** The web app as it is now, in test/artifacts/cloud-web (see screenshotsIn). */
export const screenshots = (page: Page, name: string): Promise<void> => screenshotsIn(ARTIFACTS, page, name);

/** The page as it is now at a desktop's width (`folder/name.png`) and a phone's (`name-phone.png`), where nothing may run off the side; the page is left at a desktop's width. */
export async function screenshotsIn(folder: string, page: Page, name: string): Promise<void> {
  mkdirSync(folder, { recursive: true });
  await page.setViewportSize(DESKTOP);
  await page.screenshot({ path: `${folder}/${name}.png`, fullPage: true });
  await page.setViewportSize(PHONE);
  const width = await page.evaluate("document.documentElement.scrollWidth");
  await page.screenshot({ path: `${folder}/${name}-phone.png`, fullPage: true });
  await page.setViewportSize(DESKTOP);
  if (width !== PHONE.width) throw new Error(`${name}: at a phone's width the page is ${String(width)} px wide, not ${PHONE.width}: something runs off the side`);
}

export async function signInAt(page: Page, url: string, who: { email: string; password: string }): Promise<void> {
  await page.goto(url);
  await page.getByLabel("Email").fill(who.email);
  await page.getByLabel("Password").fill(who.password);
  await page.getByRole("button", { name: "Sign in" }).click();
}

/** Replaces the whole text of the config editor in the region named `region`, as a person selecting all and pasting would. */
export async function pasteConfig(page: Page, region: string, text: string): Promise<void> {
  const editor = page.getByRole("region", { name: region }).locator(".cm-content");
  await editor.click();
  await page.keyboard.press("Control+A");
  await editor.evaluate((element, pasted) => {
    // The page's own DataTransfer and ClipboardEvent (the tests' types know no DOM).
    const window = globalThis as unknown as {
      DataTransfer: new () => { setData(type: string, value: string): void };
      ClipboardEvent: new (type: string, init: object) => Event;
    };
    const data = new window.DataTransfer();
    data.setData("text/plain", pasted);
    element.dispatchEvent(new window.ClipboardEvent("paste", { clipboardData: data, bubbles: true, cancelable: true }));
  }, text);
}
