// svc-cloud's web app for a person who uses a keyboard, a screen reader or a small screen. Every
// page, signed out and signed in, at a desktop's and a phone's width, is checked by axe-core (the
// WCAG 2.1 A and AA rules: names and labels, contrast, structure, ARIA) in headless Chromium; and
// an operator goes from sign-in to a part's logs by keyboard alone, each control showing where the
// focus is, down to narrowing the logs to one bar of the volume chart.
import { createRequire } from "node:module";
import { timestampFromMs } from "@bufbuild/protobuf/wkt";
import { chromium, type Browser, type Locator, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AppService } from "../../proto/gen/app/v1/app_pb.js";
import { RobotService } from "../../proto/gen/app/v1/robot_pb.js";
import { signedInClient } from "../helpers/cloud-client.js";
import { screenshots, signInAt } from "../helpers/cloud-browser.js";
import { startCloud, type CloudProcess, type MachineCredentials } from "../helpers/cloud-process.js";

const AXE = createRequire(import.meta.url).resolve("axe-core/axe.min.js");
const OWNER = { email: "owner@example.com", password: "correct horse battery" };
const WIDTHS = [
  { name: "desktop", width: 1280, height: 900 },
  { name: "phone", width: 390, height: 844 },
];
let browser: Browser;
let cloud: CloudProcess;
let rover: MachineCredentials;
let fragmentId: string;
let machineId: string;

beforeAll(async () => {
  cloud = await startCloud(OWNER);
  rover = cloud.createMachine("rover");
  const app = await signedInClient(AppService, cloud.url, cloud.init.api_key);
  const sensor = { name: "temp", api: "rdk:component:sensor", model: "fake" };
  await app.updateRobotPart({ id: rover.cloud.id, name: "", robotConfig: { components: [sensor] } });
  await app.updateRobotPart({ id: rover.cloud.id, name: "", robotConfig: { components: [sensor], debug: true } });
  machineId = (await app.getRobotPart({ id: rover.cloud.id })).part!.robot;
  fragmentId = (await app.createFragment({ name: "lights", organizationId: cloud.init.organization_id, config: { components: [sensor] } })).fragment!.id;
  const device = await signedInClient(RobotService, cloud.url, rover.cloud.api_key);
  const now = Date.now();
  const entry = (level: string, message: string, ago: number) => ({ host: "rover", level, time: timestampFromMs(now - ago), loggerName: "rdk", message, caller: {}, stack: "", fields: [] });
  await device.log({ id: rover.cloud.id, logs: [entry("info", "motor started", 3 * 3600_000), entry("error", "motor stalled", 2 * 3600_000), entry("warn", "battery low", 60_000)] });
  browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: ["--no-sandbox", "--headless"] });
});
afterAll(async () => {
  await browser?.close();
  await cloud?.stop();
});

interface Violation {
  id: string;
  help: string;
  nodes: { target: string[]; failureSummary?: string }[];
}

/** axe-core's WCAG 2.1 A/AA findings on the page as it is now, one line each. */
async function violations(page: Page): Promise<string[]> {
  await page.addScriptTag({ path: AXE });
  const found = await page.evaluate(async () => {
    const axe = (globalThis as unknown as { axe: { run(context: unknown, options: unknown): Promise<{ violations: Violation[]; passes: { id: string }[] }> } }).axe;
    const result = await axe.run((globalThis as unknown as { document: unknown }).document, { runOnly: { type: "tag", values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"] } });
    return { violations: result.violations, passed: result.passes.map((rule) => rule.id) };
  });
  // The rules that matter most here had something to judge: labels, names and contrast.
  expect(found.passed).toEqual(expect.arrayContaining(["color-contrast", "document-title", "html-has-lang"]));
  return found.violations.flatMap((v) => v.nodes.map((n) => `${v.id} (${v.help}) at ${n.target.join(" ")}: ${n.failureSummary ?? ""}`));
}

/** Each page a person reaches, and what shows it has loaded. */
const PAGES: { name: string; hash: () => string; ready: (page: Page) => Promise<unknown>; signedOut?: boolean }[] = [
  { name: "sign-in", hash: () => "", ready: (p) => p.getByRole("form", { name: "Sign in" }).waitFor(), signedOut: true },
  { name: "invitation", hash: () => `#/invite/${"0".repeat(64)}`, ready: (p) => p.getByRole("button", { name: "Join" }).waitFor(), signedOut: true },
  { name: "fleet", hash: () => "", ready: (p) => p.getByRole("region", { name: "Fleet" }).getByRole("link", { name: "rover-main" }).waitFor() },
  { name: "machine", hash: () => `#/machine/${machineId}`, ready: (p) => p.getByRole("region", { name: "Parts" }).waitFor() },
  { name: "part", hash: () => `#/part/${rover.cloud.id}`, ready: (p) => p.getByRole("region", { name: "Logs" }).getByRole("group", { name: /^Log volume: 3 entries/ }).waitFor() },
  { name: "fragments", hash: () => "#/fragments", ready: (p) => p.getByRole("link", { name: "lights" }).waitFor() },
  { name: "fragment", hash: () => `#/fragment/${fragmentId}`, ready: (p) => p.getByRole("region", { name: "Fragment config" }).locator(".cm-content").waitFor() },
  { name: "versions", hash: () => "#/versions", ready: (p) => p.getByRole("cell", { name: "rover-main" }).first().waitFor() },
  { name: "people", hash: () => "#/people", ready: (p) => p.getByRole("cell", { name: OWNER.email }).waitFor() },
  { name: "keys", hash: () => "#/keys", ready: (p) => p.getByRole("button", { name: "Create key" }).waitFor() },
];

describe("the web app's accessibility", () => {
  for (const width of WIDTHS) {
    it(`has no WCAG 2.1 A or AA violation on any page at a ${width.name}'s width`, async () => {
      const signedIn = await browser.newContext({ bypassCSP: true, viewport: width });
      const signedOut = await browser.newContext({ bypassCSP: true, viewport: width });
      const first = await signedIn.newPage();
      await signInAt(first, cloud.url, OWNER);
      await first.getByRole("region", { name: "Fleet" }).waitFor();
      const found: string[] = [];
      for (const shown of PAGES) {
        const page = await (shown.signedOut ? signedOut : signedIn).newPage();
        await page.goto(`${cloud.url}/${shown.hash()}`);
        await shown.ready(page);
        found.push(...(await violations(page)).map((line) => `${shown.name}: ${line}`));
        await page.close();
      }
      await signedIn.close();
      await signedOut.close();
      expect(found).toEqual([]);
    });
  }
});

/** Whether the focused element shows it: the browser's focus ring or an outline, or, for a chart's bar, its outline stroke; undefined when nothing on the page has the focus (Tab went on to the browser's own controls). */
function focusShown(page: Page): Promise<boolean | undefined> {
  return page.evaluate(() => {
    // The page's own DOM, as far as this reads it (the tests' types know no DOM).
    interface Node {
      tagName: string;
      classList: { contains(name: string): boolean };
      shadowRoot: { activeElement: Node | null } | null;
      querySelector(selector: string): Node | null;
      closest(selector: string): Node | null;
    }
    const window = globalThis as unknown as { document: { activeElement: Node | null }; getComputedStyle(e: Node): { outlineStyle: string; outlineWidth: string; stroke: string } };
    let focused = window.document.activeElement;
    if (!focused || focused.tagName === "BODY") return undefined;
    // Into the config editor's shadow root, where CodeMirror marks its whole editor as focused.
    while (focused.shadowRoot?.activeElement) focused = focused.shadowRoot.activeElement;
    if (focused.classList.contains("bar")) return window.getComputedStyle(focused.querySelector("rect")!).stroke !== "none";
    const outlined = (element: Node | null) => {
      const style = element && window.getComputedStyle(element);
      return !!style && style.outlineStyle !== "none" && parseFloat(style.outlineWidth) > 0;
    };
    return outlined(focused) || outlined(focused.closest(".cm-editor.cm-focused"));
  });
}

/** Presses Tab until `target` has the focus, checking at every stop that the focus can be seen; the number of presses. */
async function tabTo(page: Page, target: Locator, limit = 80): Promise<number> {
  const seen: string[] = [];
  for (let presses = 1; presses <= limit; presses++) {
    await page.keyboard.press("Tab");
    // A control may mark its focus a frame later (CodeMirror does), so the look is awaited.
    const focused = await page.evaluate(() => (globalThis as unknown as { document: { activeElement: { outerHTML: string } | null } }).document.activeElement?.outerHTML.slice(0, 200));
    seen.push(focused?.slice(0, 60) ?? "none");
    let shown = await focusShown(page);
    for (let frames = 0; shown === false && frames < 20; frames++) {
      await page.waitForTimeout(50);
      shown = await focusShown(page);
    }
    expect(shown, `the focus on ${focused} is not shown`).not.toBe(false);
    if (await target.evaluate((element) => element === (globalThis as unknown as { document: { activeElement: unknown } }).document.activeElement)) return presses;
  }
  throw new Error(`${limit} presses of Tab never reached ${target.toString()}: ${seen.join(" | ")}`);
}

const isFocused = (target: Locator) => target.evaluate((element) => element === (globalThis as unknown as { document: { activeElement: unknown } }).document.activeElement);

describe("the web app by keyboard alone", () => {
  it("signs in, opens a part from the fleet and narrows its logs to one bar of the chart, the focus shown at every step", async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await page.goto(cloud.url);
    await page.getByRole("form", { name: "Sign in" }).waitFor();
    await tabTo(page, page.getByLabel("Email"));
    await page.keyboard.type(OWNER.email);
    await page.keyboard.press("Tab");
    expect(await isFocused(page.getByLabel("Password"))).toBe(true);
    await page.keyboard.type(OWNER.password);
    await page.keyboard.press("Enter");

    const fleet = page.getByRole("region", { name: "Fleet" });
    await tabTo(page, fleet.getByRole("link", { name: "rover-main" }));
    await page.keyboard.press("Enter");
    await page.getByRole("heading", { name: "rover-main" }).waitFor();

    // The chart's bars are one stop of Tab, on the newest span; the arrows move between them.
    const logs = page.getByRole("region", { name: "Logs" });
    const chart = logs.getByRole("group", { name: /^Log volume: 3 entries/ });
    await chart.waitFor();
    const bars = chart.getByRole("button");
    expect(await bars.count()).toBe(48);
    expect(await chart.locator('[tabindex="0"]').count()).toBe(1);
    await tabTo(page, bars.last());
    await page.keyboard.press("ArrowLeft");
    expect(await isFocused(bars.nth(46))).toBe(true);
    await expect.poll(() => focusShown(page)).toBe(true);
    await page.keyboard.press("End");
    expect(await isFocused(bars.last())).toBe(true);
    await page.keyboard.press("Enter");
    await expect.poll(() => logs.getByLabel("From", { exact: true }).inputValue()).not.toBe("");
    await expect.poll(() => logs.locator("table.logs tbody tr td:nth-child(4)").allTextContents()).toEqual(["battery low"]);
    // The chart is drawn again over that span, the focus on its newest bar; Tab moves on from the
    // chart rather than through all of its bars.
    const narrowed = logs.getByRole("group", { name: /^Log volume: 1 entry from/ });
    await expect.poll(() => isFocused(narrowed.getByRole("button").last())).toBe(true);
    await screenshots(page, "19-keyboard-chart");
    await page.keyboard.press("Tab");
    expect(await logs.locator("figure.volume svg").evaluate((svg) => svg.contains((globalThis as unknown as { document: { activeElement: unknown } }).document.activeElement as never))).toBe(false);
  });
});
