// svc-server's own control page in headless Chromium against a real svc-server of fake resources,
// as a person on the bench uses it: the machine's status and where its configuration comes from,
// a motor driven for some revolutions with its position moving, a sensor's reading following the
// machine, a pin set and read back, the logs filtered by level, and the resource graph. Opened
// under `localhost` the page talks gRPC-web; under an address, WebRTC through the machine's own
// signaling. Screenshots in test/artifacts/server-page/.
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fakeMachine, launchChromium, localPageUrl, openPage, pageScreenshots } from "../../helpers/page-browser.js";
import { startSvcServer, type SvcServerProcess } from "../../helpers/svc-server-process.js";

let server: SvcServerProcess;
let browser: Browser;
let page: Page;

beforeAll(async () => {
  server = await startSvcServer(fakeMachine(), { startTimeoutMs: 30_000 });
  browser = await launchChromium();
  page = await openPage(browser, localPageUrl(server.url));
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

const card = (name: string) => page.getByRole("region", { name: `${name} card` });

describe("the control page", () => {
  it("shows the machine running, its revision and file, and each resource's state", async () => {
    const status = page.getByRole("region", { name: "Status" });
    await expect.poll(() => status.getByLabel("Config origin").textContent()).toBe(`the file ${server.configFile}`);
    expect(await status.getByLabel("Config revision").textContent()).toMatch(/^[0-9a-f]{12}$/);
    const states = status.getByRole("table", { name: "Resource states" });
    await expect.poll(() => states.getByRole("row").count()).toBe(10);
    const row = await states.getByRole("row", { name: /^left/ }).locator("td").allTextContents();
    expect(row).toEqual(["left", "rdk:component:motor", "READY", ""]);
    for (const name of ["board", "temp", "left", "drive", "wrist", "imu", "battery", "cam", "thing"]) await card(name).waitFor();
    await pageScreenshots(page, "01-machine");
  });

  it("drives a motor for some revolutions and shows its position moving, then stops it", async () => {
    const left = card("left");
    await left.getByLabel("RPM").fill("600");
    await left.getByLabel("Revolutions").fill("100");
    await left.getByRole("button", { name: "Go for" }).click();
    await expect.poll(() => left.getByLabel("left moving").textContent(), { timeout: 10_000 }).toBe("moving");
    const first = Number(await left.getByLabel("left position").textContent());
    await expect.poll(async () => Number(await left.getByLabel("left position").textContent()), { timeout: 10_000 }).toBeGreaterThan(first);
    await left.getByRole("button", { name: "Stop" }).click();
    await expect.poll(() => left.getByLabel("left moving").textContent(), { timeout: 10_000 }).toBe("stopped");
  });

  it("shows a sensor's reading and follows it when the machine's changes", async () => {
    const readings = card("temp").getByRole("table", { name: "temp readings" });
    await expect.poll(() => readings.getByRole("row", { name: /celsius/ }).locator("td").textContent()).toBe("21.500");
    const next = fakeMachine();
    (next.components as Array<{ name: string; attributes?: object }>).find((c) => c.name === "temp")!.attributes = { readings: { celsius: 23.25 } };
    server.writeConfig(next);
    await expect.poll(() => readings.getByRole("row", { name: /celsius/ }).locator("td").textContent(), { timeout: 20_000 }).toBe("23.250");
  });

  it("sets a board pin and reads it back, from a page opened afresh too", async () => {
    const board = card("board");
    await board.getByLabel("Pin", { exact: true }).fill("7");
    await board.getByRole("button", { name: "Set high" }).click();
    await expect.poll(() => board.getByLabel("board pin level").textContent()).toBe("high");
    await board.getByRole("button", { name: "Set low" }).click();
    await expect.poll(() => board.getByLabel("board pin level").textContent()).toBe("low");
    await board.getByRole("button", { name: "Set high" }).click();
    await expect.poll(() => board.getByLabel("board pin level").textContent()).toBe("high");
    const fresh = await openPage(browser, localPageUrl(server.url));
    const again = fresh.getByRole("region", { name: "board card" });
    expect(await again.getByLabel("board pin level").textContent()).toBe("");
    await again.getByLabel("Pin", { exact: true }).fill("7");
    await again.getByRole("button", { name: "Get", exact: true }).click();
    await expect.poll(() => again.getByLabel("board pin level").textContent()).toBe("high");
    await fresh.close();
  });

  it("moves a servo, shows a camera's image and answers DoCommand", async () => {
    const wrist = card("wrist");
    await wrist.getByLabel("Angle (degrees)").fill("45");
    await wrist.getByRole("button", { name: "Move" }).click();
    await expect.poll(() => wrist.getByLabel("wrist angle").textContent()).toBe("45");
    const cam = card("cam");
    await cam.getByRole("button", { name: "Get image" }).click();
    const image = cam.getByRole("img", { name: "cam's image" });
    await expect.poll(() => image.evaluate((img) => (img as unknown as { naturalWidth: number }).naturalWidth)).toBe(64);
    const thing = card("thing");
    await thing.getByText("DoCommand").click();
    await thing.getByLabel("Command (JSON)").fill('{"echo": "<b>hi</b>"}');
    await thing.getByRole("button", { name: "Send" }).click();
    await expect.poll(() => thing.getByLabel("thing answer").textContent()).toContain("<b>hi</b>");
  });

  it("shows the server's logs live, filtered by level", async () => {
    const logs = page.getByRole("region", { name: "Logs" });
    const messages = () => logs.locator("td.message").allTextContents();
    const levels = () => logs.locator("td.level").allTextContents();
    await expect.poll(async () => (await messages()).some((m) => m.startsWith("serving"))).toBe(true);
    await logs.getByLabel("Level").selectOption("warn");
    await expect.poll(async () => (await messages()).some((m) => m.startsWith("serving"))).toBe(false);
    expect((await levels()).every((l) => l === "warn" || l === "error")).toBe(true);
    // A broken edit is refused with an error in the log, which the warn view shows as it comes.
    server.writeConfig("{ not json");
    await expect.poll(async () => (await levels()).includes("error"), { timeout: 20_000 }).toBe(true);
    await logs.getByLabel("Level").selectOption("debug");
    await expect.poll(async () => (await levels()).includes("info")).toBe(true);
    server.writeConfig(fakeMachine());
  });

  it("draws the resource graph with each resource's state and its dependencies", async () => {
    const graph = page.getByRole("region", { name: "Resource graph" });
    const drawn = graph.getByRole("img", { name: "Resources and their dependencies" });
    await expect.poll(() => drawn.locator("g.node").count()).toBe(9);
    expect(await drawn.locator('g.node[data-name="rdk:component:motor/drive"]').getAttribute("class")).toBe("node state-READY");
    const edge = drawn.locator("line.edge");
    expect(await edge.count()).toBe(1);
    expect([await edge.getAttribute("data-from"), await edge.getAttribute("data-to")]).toEqual(["rdk:component:motor/drive", "rdk:component:board/board"]);
    await graph.scrollIntoViewIfNeeded();
    await pageScreenshots(page, "02-graph-and-logs");
  });

  it("reaches the machine over WebRTC when opened under its address", async () => {
    const byAddress = await openPage(browser, `http://127.0.0.1:${new URL(server.url).port}/`);
    expect(await byAddress.locator("header .via").textContent()).toBe("connected over WebRTC");
    const readings = byAddress.getByRole("region", { name: "temp card" }).getByRole("table", { name: "temp readings" });
    await expect.poll(() => readings.getByRole("row", { name: /celsius/ }).count()).toBe(1);
    await byAddress.close();
  });
});
