// First run in a browser: svc-cloud set up without `--email` has nobody, and the page opened on
// its own computer offers to make the first owner, who is then signed in and sees the fleet. The
// hostile half: only once (a second owner is refused, even two at once), only through svc-cloud's
// own page, only with an email and a password long enough, and only from this computer.
import { chromium, type Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isLoopbackPeer } from "../../targets/cloud/api/setup-routes.js";
import { screenshots } from "../helpers/cloud-browser.js";
import { startCloud, type CloudProcess } from "../helpers/cloud-process.js";

let cloud: CloudProcess;
let browser: Browser;
let origin: string;

beforeAll(async () => {
  cloud = await startCloud();
  origin = new URL(cloud.url).origin;
  browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: ["--no-sandbox", "--headless"] });
});
afterAll(async () => {
  await browser?.close();
  await cloud?.stop();
});

function setUp(body: unknown, headers: Record<string, string> = {}) {
  return fetch(`${cloud.url}/app/setup`, { method: "POST", headers: { "content-type": "application/json", origin, ...headers }, body: JSON.stringify(body) });
}

describe("first run", () => {
  it("refuses a first owner from another site, or without a real email and a long enough password", async () => {
    expect((await (await fetch(`${cloud.url}/app/setup`)).json()) as unknown).toEqual({ needed: true });
    expect((await setUp({ email: "owner@example.com", password: "long enough" }, { origin: "http://evil.example" })).status).toBe(403);
    const short = await setUp({ email: "owner@example.com", password: "short" });
    expect(short.status).toBe(400);
    expect(((await short.json()) as { error: string }).error).toMatch(/at least 8 characters/);
    expect((await setUp({ email: "not an email", password: "long enough" })).status).toBe(400);
    expect((await setUp({ email: "owner@example.com" })).status).toBe(400);
  });

  it("makes the first owner in the browser, signed in at once, and then never again", async () => {
    const page = await browser.newPage();
    await page.goto(cloud.url);
    const form = page.getByRole("form", { name: "First owner" });
    await form.waitFor();
    await page.getByLabel("Email").fill("Owner@Example.com");
    await page.getByLabel("Password").fill("a long enough password");
    await page.getByRole("button", { name: "Create owner" }).click();
    await page.getByRole("region", { name: "Fleet" }).waitFor();
    expect(await page.locator("header .who").textContent()).toBe("owner@example.com");
    await screenshots(page, "0-first-owner");

    // Two more at once: neither becomes an owner.
    const late = await Promise.all([setUp({ email: "second@example.com", password: "another password" }), setUp({ email: "third@example.com", password: "another password" })]);
    expect(late.map((r) => r.status)).toEqual([409, 409]);
    expect((await (await fetch(`${cloud.url}/app/setup`)).json()) as unknown).toEqual({ needed: false });

    // The owner signs in again like anyone, and the page offers no setup any more.
    await page.getByRole("button", { name: "Sign out" }).click();
    await page.getByRole("form", { name: "Sign in" }).waitFor();
    await page.getByLabel("Email").fill("owner@example.com");
    await page.getByLabel("Password").fill("a long enough password");
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.getByRole("region", { name: "Fleet" }).waitFor();
  });

  it("takes a first owner only from this computer", () => {
    expect(isLoopbackPeer("127.0.0.1")).toBe(true);
    expect(isLoopbackPeer("::1")).toBe(true);
    expect(isLoopbackPeer("::ffff:127.0.0.1")).toBe(true);
    expect(isLoopbackPeer("192.168.1.20")).toBe(false);
    expect(isLoopbackPeer("::ffff:10.0.0.2")).toBe(false);
    expect(isLoopbackPeer("1270.0.0.1")).toBe(false);
    expect(isLoopbackPeer("")).toBe(false);
  });
});
