// A part's logs in svc-cloud's web app, in headless Chromium, as an operator watches them: the
// chart of log volume by level, the live tail adding what the machine sends at the top (only at the
// chosen level or above), and a bar of the chart narrowing the list to its span. Screenshots in
// test/artifacts/cloud-web/, desktop and phone.
import { timestampFromMs } from "@bufbuild/protobuf/wkt";
import { chromium, type Browser, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RobotService } from "../../proto/gen/app/v1/robot_pb.js";
import { signedInClient } from "../helpers/cloud-client.js";
import { screenshots, signInAt } from "../helpers/cloud-browser.js";
import { startCloud, type CloudProcess, type MachineCredentials } from "../helpers/cloud-process.js";

const OWNER = { email: "owner@example.com", password: "correct horse battery" };
let browser: Browser;
let cloud: CloudProcess;
let rover: MachineCredentials;

const entry = (level: string, message: string) => ({ host: "rover", level, time: timestampFromMs(Date.now()), loggerName: "rdk", message, caller: {}, stack: "", fields: [] });

async function send(...logs: ReturnType<typeof entry>[]): Promise<void> {
  const device = await signedInClient(RobotService, cloud.url, rover.cloud.api_key);
  await device.log({ id: rover.cloud.id, logs });
}

beforeAll(async () => {
  cloud = await startCloud(OWNER);
  rover = cloud.createMachine("rover");
  await send(entry("info", "motor started"), entry("error", "motor stalled"), entry("info", "sensor ready"));
  browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: ["--no-sandbox", "--headless"] });
});
afterAll(async () => {
  await browser?.close();
  await cloud?.stop();
});

const messages = (page: Page) => page.getByRole("region", { name: "Logs" }).locator("table.logs tbody tr td:nth-child(4)").allTextContents();

describe("a part's logs", () => {
  it("charts their volume, follows the live tail at the chosen level, and narrows to a bar's span", async () => {
    const page = await browser.newPage();
    await signInAt(page, `${cloud.url}/#/part/${rover.cloud.id}`, OWNER);
    const logs = page.getByRole("region", { name: "Logs" });
    await expect.poll(() => messages(page)).toEqual(["sensor ready", "motor stalled", "motor started"]);
    const chart = logs.getByRole("group", { name: /^Log volume: 3 entries from / });
    await chart.waitFor();
    // The same counts, as a table for screen readers: the last span holds all three.
    const spans = logs.locator("figure.volume .visually-hidden tbody tr");
    expect(await spans.count()).toBe(48);
    expect(await spans.last().locator("td").allTextContents()).toEqual([expect.any(String), "0", "2", "0", "1", "0", "0", "0"]);

    await logs.getByRole("button", { name: "Live" }).click();
    await expect.poll(() => logs.getByRole("button", { name: "Stop live" }).getAttribute("aria-pressed")).toBe("true");
    // The tail is open once an entry sent now arrives; entries keep coming until it does.
    await expect
      .poll(async () => {
        await send(entry("info", "fresh entry"));
        return (await messages(page))[0];
      })
      .toBe("fresh entry");
    await page.getByLabel("Level").selectOption("error");
    await expect.poll(() => messages(page)).toEqual(["motor stalled"]);
    await expect
      .poll(async () => {
        await send(entry("info", "quiet"), entry("error", "loud"));
        return (await messages(page))[0];
      })
      .toBe("loud");
    expect(await messages(page)).not.toContain("quiet");
    await screenshots(page, "15-logs-live");
    await logs.getByRole("button", { name: "Stop live" }).click();

    // The chart's last bar: the list narrows to its span, which ended when the chart was drawn.
    await page.getByLabel("Level").selectOption("debug");
    await logs.locator("figure.volume g.bar").last().click();
    await expect.poll(() => logs.getByLabel("From", { exact: true }).inputValue()).not.toBe("");
    await expect.poll(() => messages(page)).toEqual(expect.arrayContaining(["sensor ready", "motor stalled", "motor started"]));
    expect(await logs.getByRole("button", { name: "Live" }).isDisabled()).toBe(true);
    await logs.getByRole("button", { name: "Any time" }).click();
    await expect.poll(() => logs.getByLabel("From", { exact: true }).inputValue()).toBe("");
  });
});
