// The control page's Diagnostics section in headless Chromium against real svc-server processes:
// with recording on (the default, into a folder in the test's temporary space) the main figures
// are charted as images whose drawing is a polyline through the readings of the last hour, more
// points as readings come; another metric (a sensor's GetReadings calls, counted as the page reads
// the sensor) is picked from a filtered list and charted; at a phone's width nothing runs off the
// side. With -ftdc=false the section says recording is off and how to turn it on, and draws nothing.
import type { Browser, Locator, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fakeMachine, launchChromium, localPageUrl, openPage, pageScreenshots } from "../../helpers/page-browser.js";
import { pageCall } from "../../helpers/page-client.js";
import { startSvcServer, type SvcServerProcess } from "../../helpers/svc-server-process.js";

const GET_READINGS = "api./viam.component.sensor.v1.SensorService/GetReadings.calls";
let recording: SvcServerProcess;
let off: SvcServerProcess;
let browser: Browser;
let page: Page;

beforeAll(async () => {
  [recording, off] = await Promise.all([
    startSvcServer(fakeMachine(), { startTimeoutMs: 30_000 }),
    startSvcServer(fakeMachine(), { args: ["-ftdc=false"], startTimeoutMs: 30_000 }),
  ]);
  browser = await launchChromium();
  page = await openPage(browser, localPageUrl(recording.url));
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await recording?.stop();
  await off?.stop();
});

/** The SVG an image of the section shows, from its data: URL. */
async function drawing(chart: Locator): Promise<string> {
  const src = (await chart.getAttribute("src")) ?? "";
  const prefix = "data:image/svg+xml;charset=utf-8,";
  if (!src.startsWith(prefix)) throw new Error(`not an SVG data URL: ${src.slice(0, 60)}`);
  return decodeURIComponent(src.slice(prefix.length));
}

/** How many points the chart's polyline goes through. */
async function points(chart: Locator): Promise<number> {
  const svg = await drawing(chart);
  const line = /<polyline [^>]*points="([^"]*)"/.exec(svg);
  return line && line[1] ? line[1].trim().split(/\s+/).length : 0;
}

describe("the diagnostics charts", () => {
  it("charts the main figures with polylines through the readings, with more points as readings come", async () => {
    const section = page.getByRole("region", { name: "Diagnostics" });
    for (const metric of ["process.cpu_user_pct", "process.rss_bytes", "process.heap_used_bytes", "process.event_loop_delay_max_ms", "api.calls", "api.errors", "graph.resources.READY"]) {
      await section.getByRole("img", { name: `chart of ${metric}` }).waitFor({ timeout: 20_000 });
    }
    const rss = section.getByRole("img", { name: "chart of process.rss_bytes" });
    await expect.poll(() => points(rss), { timeout: 20_000 }).toBeGreaterThanOrEqual(3);
    const first = await points(rss);
    await expect.poll(() => points(rss), { timeout: 20_000 }).toBeGreaterThan(first);
    expect(await drawing(rss)).toContain("<title>process.rss_bytes</title>");
    // The image is drawn (the page's policy lets a data: image in), scaled to the section's width.
    expect(await rss.evaluate((img) => (img as unknown as { naturalWidth: number }).naturalWidth)).toBeGreaterThan(0);
    await expect.poll(() => section.locator("figure.chart figcaption").first().textContent()).toBe("CPU, user (% of one core)");
    // Nine resources, all READY: the READY chart's highest value says so.
    await expect.poll(async () => await drawing(section.getByRole("img", { name: "chart of graph.resources.READY" })), { timeout: 20_000 }).toMatch(/text-anchor="end">9<\/text>/);
  });

  it("charts another metric picked from the list, narrowed by the filter", async () => {
    const section = page.getByRole("region", { name: "Diagnostics" });
    const picker = section.getByLabel("Metric to chart");
    // The temp card reads its sensor every second: its calls are counted and recorded.
    await expect.poll(() => picker.locator("option").allTextContents(), { timeout: 20_000 }).toContain(GET_READINGS);
    await section.getByLabel("Filter metrics").fill("GetReadings");
    const offered = (await picker.locator("option").allTextContents()).slice(1);
    expect(offered.length).toBeGreaterThan(0);
    expect(offered.every((name) => name.includes("GetReadings"))).toBe(true);
    await picker.selectOption(GET_READINGS);
    const chart = section.getByRole("img", { name: `chart of ${GET_READINGS}` });
    await chart.waitFor({ timeout: 20_000 });
    await expect.poll(() => points(chart), { timeout: 20_000 }).toBeGreaterThanOrEqual(2);
    expect(await drawing(chart)).toContain(`<title>${GET_READINGS}</title>`);
    await section.scrollIntoViewIfNeeded();
    await pageScreenshots(page, "03-diagnostics");
  });

  it("says recording is off and how to turn it on when the server runs with -ftdc=false", async () => {
    expect((await pageCall(off.url, "/page/api/diagnostics")).body).toEqual({ recording: false, names: [], series: [] });
    const offPage = await openPage(browser, localPageUrl(off.url));
    const section = offPage.getByRole("region", { name: "Diagnostics" });
    await expect.poll(() => section.locator("p.off").textContent()).toContain("it was started with -ftdc=false. Start it without that flag");
    expect(await section.getByRole("img").count()).toBe(0);
    await offPage.close();
  });
});
