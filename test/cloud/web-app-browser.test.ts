// svc-cloud's web app in headless Chromium, as an operator first meets it: the page served at `/`
// with its own script and style only, the sign-in form (a wrong password answered on the page),
// the fleet with every machine of the organisation, its location and parts, filtered as one
// types, and signing out. The real svc-cloud process, its real `machine create`, a real browser.
// Screenshots of each step are kept in test/artifacts/cloud-web/, the fleet and a part's page at
// a phone's width too.
import { readFileSync } from "node:fs";
import { chromium, type Browser, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { timestampFromMs } from "@bufbuild/protobuf/wkt";
import { AppService } from "../../proto/gen/app/v1/app_pb.js";
import { RobotService } from "../../proto/gen/app/v1/robot_pb.js";
import { signedInClient } from "../helpers/cloud-client.js";
import { screenshots, signInAt } from "../helpers/cloud-browser.js";
import { startCloud, type CloudProcess, type MachineCredentials } from "../helpers/cloud-process.js";

const OWNER = { email: "owner@example.com", password: "correct horse battery" };
let browser: Browser;
let cloud: CloudProcess;
let rover: MachineCredentials;
let arm: MachineCredentials;

beforeAll(async () => {
  cloud = await startCloud(OWNER);
  rover = cloud.createMachine("rover");
  arm = cloud.createMachine("arm-7");
  // The rover's part: a second revision of its config, and a few log lines from the machine.
  const app = await signedInClient(AppService, cloud.url, cloud.init.api_key);
  const sensor = { name: "temp", api: "rdk:component:sensor", model: "fake" };
  await app.updateRobotPart({ id: rover.cloud.id, name: "", robotConfig: { components: [sensor] } });
  const device = await signedInClient(RobotService, cloud.url, rover.cloud.api_key);
  const entry = (level: string, message: string) => ({ host: "rover", level, time: timestampFromMs(Date.now()), loggerName: "rdk", message, caller: {}, stack: "", fields: [] });
  await device.log({ id: rover.cloud.id, logs: [entry("info", "motor started"), entry("error", "motor stalled"), entry("info", "sensor ready")] });
  browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: ["--no-sandbox", "--headless"] });
});
afterAll(async () => {
  await browser?.close();
  await cloud?.stop();
});


describe("the web app", () => {
  it("signs in, shows the fleet, filters it and signs out", async () => {
    const page = await browser.newPage();
    const problems: string[] = [];
    page.on("pageerror", (error) => problems.push(error.message));
    page.on("console", (message) => message.type() === "error" && problems.push(message.text()));

    const served = await page.goto(cloud.url);
    expect(served!.headers()["content-security-policy"]).toContain("script-src 'self'");
    await page.getByRole("form", { name: "Sign in" }).waitFor();

    await page.getByLabel("Email").fill(OWNER.email);
    await page.getByLabel("Password").fill("not the password");
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect.poll(() => page.getByRole("alert").textContent()).toBe("invalid credentials");
    await screenshots(page, "1-wrong-password");

    await page.getByLabel("Password").fill(OWNER.password);
    await page.getByRole("button", { name: "Sign in" }).click();
    const fleet = page.getByRole("region", { name: "Fleet" });
    await fleet.getByRole("cell", { name: "rover", exact: true }).waitFor();
    await expect.poll(() => fleet.locator("tbody tr").count()).toBe(2);
    expect(await fleet.getByRole("cell", { name: "arm-7", exact: true }).count()).toBe(1);
    expect(await page.locator("header .who").textContent()).toBe(OWNER.email);
    await screenshots(page, "2-fleet");

    // The session is the browser's cookie, which no script on the page can read.
    expect(await page.evaluate("document.cookie")).toBe("");
    const cookies = await page.context().cookies();
    expect(cookies.find((c) => c.name === "svc_session")).toMatchObject({ httpOnly: true, sameSite: "Strict" });

    await page.getByLabel("Filter machines").fill("arm");
    await expect.poll(() => fleet.locator("tbody tr").count()).toBe(1);
    expect(await fleet.getByRole("cell", { name: "arm-7", exact: true }).count()).toBe(1);
    await page.getByLabel("Filter machines").fill("no such machine");
    await fleet.getByText("No machine matches the filter.").waitFor();
    await screenshots(page, "3-filtered");

    await page.getByRole("button", { name: "Sign out" }).click();
    await page.getByRole("form", { name: "Sign in" }).waitFor();
    await page.reload();
    await page.getByRole("form", { name: "Sign in" }).waitFor();
    expect(problems.filter((p) => !p.includes("401"))).toEqual([]);
  });

  it("shows a part's config, history and logs, filters the logs and restores an earlier revision", async () => {
    const page = await browser.newPage();
    await signInAt(page, cloud.url, OWNER);
    await page.getByRole("link", { name: "rover-main" }).click();

    const config = page.getByRole("region", { name: "Config" });
    await expect.poll(() => config.locator(".cm-content").textContent()).toContain('"temp"');
    const history = page.getByRole("region", { name: "History" });
    await expect.poll(() => history.locator("tbody tr").count()).toBe(2);
    const logs = page.getByRole("region", { name: "Logs" });
    await expect.poll(() => logs.locator("table.logs tbody tr").count()).toBe(3);
    expect(await logs.locator("table.logs tbody tr td:nth-child(4)").allTextContents()).toEqual(["sensor ready", "motor stalled", "motor started"]);
    await screenshots(page, "4-part");

    await page.getByLabel("Level").selectOption("error");
    await expect.poll(() => logs.locator("table.logs tbody tr td:nth-child(4)").allTextContents()).toEqual(["motor stalled"]);
    await page.getByLabel("Level").selectOption("debug");
    await page.getByLabel("Filter logs").fill("sensor");
    await page.getByLabel("Filter logs").press("Enter");
    await expect.poll(() => logs.locator("table.logs tbody tr td:nth-child(4)").allTextContents()).toEqual(["sensor ready"]);

    // A new credentials file, downloaded, is a working credential of this very part.
    await page.getByRole("button", { name: "New credentials file" }).click();
    const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("link", { name: "Download rover-main.json" }).click()]);
    expect(download.suggestedFilename()).toBe("rover-main.json");
    const file = JSON.parse(readFileSync(await download.path(), "utf8")) as MachineCredentials;
    expect(file.cloud.id).toBe(rover.cloud.id);
    expect(file.cloud.app_address).toBe(cloud.url);
    expect(await page.getByRole("region", { name: "Credentials" }).locator("pre").textContent()).toBe(
      `SVC_CLOUD_URL=${cloud.url} SVC_PART_ID=${file.cloud.id} SVC_API_KEY_ID=${file.cloud.api_key.id} SVC_API_KEY=${file.cloud.api_key.key} sh install.sh`,
    );
    const fresh = await signedInClient(RobotService, cloud.url, file.cloud.api_key);
    expect((await fresh.config({ id: rover.cloud.id })).config?.cloud?.id).toBe(rover.cloud.id);

    await page.getByRole("button", { name: "Restart" }).click();
    const restartStatus = page.locator("p", { has: page.getByRole("button", { name: "Restart" }) }).getByRole("status");
    await expect.poll(() => restartStatus.textContent()).toMatch(/^Restart requested/);
    const device = await signedInClient(RobotService, cloud.url, rover.cloud.api_key);
    expect((await device.needsRestart({ id: rover.cloud.id })).mustRestart).toBe(true);


    await history.getByRole("button", { name: "Restore 1" }).click();
    await expect.poll(() => history.locator("tbody tr").count()).toBe(3);
    await expect.poll(() => config.locator(".cm-content").textContent()).not.toContain('"temp"');
    expect(await history.locator("tbody tr td:nth-child(3)").first().textContent()).toBe(OWNER.email);
    await screenshots(page, "5-restored");
  });

  it("enables debug logs for the machine and for one resource, and refuses a change based on an old revision", async () => {
    const app = await signedInClient(AppService, cloud.url, cloud.init.api_key);
    await app.updateRobotPart({ id: arm.cloud.id, name: "", robotConfig: { components: [{ name: "gripper", api: "rdk:component:gripper", model: "fake" }] } });
    const page = await browser.newPage();
    await signInAt(page, `${cloud.url}/#/part/${arm.cloud.id}`, OWNER);
    const debug = page.getByRole("region", { name: "Debug logs" });
    await debug.getByLabel("The whole machine").click();
    await expect.poll(async () => JSON.parse((await app.getRobotPart({ id: arm.cloud.id })).configJson).debug).toBe(true);
    // The page shows the new revision before the next change is based on it.
    await expect.poll(() => debug.getByLabel("The whole machine").isChecked()).toBe(true);
    await debug.getByLabel("gripper").click();
    await expect.poll(() => debug.getByLabel("gripper").isChecked()).toBe(true);
    await expect.poll(async () => JSON.parse((await app.getRobotPart({ id: arm.cloud.id })).configJson).components[0].log_configuration).toEqual({ level: "debug" });
    await expect.poll(() => page.getByRole("region", { name: "Config" }).locator(".cm-content").textContent()).toContain('"log_configuration"');
    await screenshots(page, "8-debug-logs");

    // Someone else changes the config meanwhile: the page's next change is refused, not applied over it.
    await app.updateRobotPart({ id: arm.cloud.id, name: "", robotConfig: { components: [{ name: "gripper", api: "rdk:component:gripper", model: "fake" }], debug: true } });
    await debug.getByLabel("gripper").click();
    await expect.poll(() => debug.getByRole("alert").textContent()).toMatch(/changed at .* reload it and edit again/);
    expect(JSON.parse((await app.getRobotPart({ id: arm.cloud.id })).configJson).components[0].log_configuration).toBeUndefined();
  });

  it("sets the versions a part installs, and says why a spec is refused", async () => {
    const app = await signedInClient(AppService, cloud.url, cloud.init.api_key);
    const page = await browser.newPage();
    await signInAt(page, `${cloud.url}/#/part/${rover.cloud.id}`, OWNER);
    const versions = page.getByRole("region", { name: "Versions" });
    await expect.poll(() => versions.getByLabel("svc-server version").inputValue()).toBe("stable");
    await versions.getByLabel("svc-server version").fill("0.9.1");
    await versions.getByRole("button", { name: "Save versions" }).click();
    const versionControl = async () => JSON.parse((await app.getRobotPart({ id: rover.cloud.id })).configJson).agent?.version_control;
    await expect.poll(versionControl).toEqual({ "svc-server": "0.9.1" });
    await expect.poll(() => versions.getByLabel("svc-server version").inputValue()).toBe("0.9.1");
    await screenshots(page, "9-versions");

    await versions.getByLabel("svc-agent version").fill("not a version!");
    await versions.getByRole("button", { name: "Save versions" }).click();
    await expect.poll(() => versions.getByRole("alert").textContent()).toMatch(/version_control/);
    expect(await versionControl()).toEqual({ "svc-server": "0.9.1" });

    await versions.getByLabel("svc-agent version").fill("stable");
    await versions.getByLabel("svc-server version").fill("stable");
    await versions.getByRole("button", { name: "Save versions" }).click();
    await expect.poll(versionControl).toBeUndefined();
  });

  it("serves only its own files, with headers that keep other sites out", async () => {
    for (const path of ["/app/app.js", "/app/app.css", "/app/models.json"]) {
      const res = await fetch(`${cloud.url}${path}`);
      expect(res.status).toBe(200);
      expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    }
    const page = await fetch(`${cloud.url}/`);
    expect(page.headers.get("x-frame-options")).toBe("DENY");
    expect(page.headers.get("content-security-policy")).toContain("frame-ancestors 'none'");
    for (const path of ["/app/app.js.map", "/app/../linux/svc-cloud.mjs", "/app/%2e%2e/linux/svc-cloud.mjs", "/index.html"]) {
      expect((await fetch(`${cloud.url}${path}`)).status).toBe(404);
    }
  });
});
