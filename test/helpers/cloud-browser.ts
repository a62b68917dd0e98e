// A person signing in to svc-cloud's web app, as the browser tests do it: the page at `url`
// (the app itself, or one of its pages by hash), the sign-in form filled and sent.
import type { Page } from "playwright-core";

export async function signInAt(page: Page, url: string, who: { email: string; password: string }): Promise<void> {
  await page.goto(url);
  await page.getByLabel("Email").fill(who.email);
  await page.getByLabel("Password").fill(who.password);
  await page.getByRole("button", { name: "Sign in" }).click();
}
