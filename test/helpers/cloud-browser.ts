// A person signing in to svc-cloud's web app, as the browser tests do it: the page at `url`
// (the app itself, or one of its pages by hash), the sign-in form filled and sent; and a config
// pasted into the editor.
import type { Page } from "playwright-core";

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
