// Machines, keys and files in svc-cloud's web app, in headless Chromium: a machine made from the
// fleet page and its credentials file downloaded, a file the machine uploaded downloaded from its
// part's page (checked against its SHA-256), a machine's page adding a second part and removing the
// machine (its key refused after), an organisation key made (its secret shown once, and
// it works) and revoked (and it no longer works), and the CA certificate downloaded. Screenshots in
// test/artifacts/cloud-web/.
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { create } from "@bufbuild/protobuf";
import { Code, ConnectError } from "@connectrpc/connect";
import { chromium, type Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DataSyncService, FileUploadRequestSchema } from "../../proto/gen/app/datasync/v1/data_sync_pb.js";
import { AppService } from "../../proto/gen/app/v1/app_pb.js";
import { RobotService } from "../../proto/gen/app/v1/robot_pb.js";
import { signedInClient } from "../helpers/cloud-client.js";
import { screenshots, signInAt } from "../helpers/cloud-browser.js";
import { startCloud, type CloudProcess, type MachineCredentials } from "../helpers/cloud-process.js";

const OWNER = { email: "owner@example.com", password: "correct horse battery" };
let browser: Browser;
let cloud: CloudProcess;

beforeAll(async () => {
  cloud = await startCloud(OWNER);
  browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: ["--no-sandbox", "--headless"] });
});
afterAll(async () => {
  await browser?.close();
  await cloud?.stop();
});

describe("machines, keys and files in the web app", () => {
  it("makes a machine, downloads its credentials, and downloads a file it uploaded", async () => {
    const page = await browser.newPage({ acceptDownloads: true });
    // The person's locations arrive late: the form waits for them rather than sending none.
    await page.route("**/viam.app.v1.AppService/ListLocations", async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      await route.continue();
    });
    await signInAt(page, cloud.url, OWNER);
    const form = page.getByRole("form", { name: "New machine" });
    await form.getByLabel("New machine", { exact: true }).fill("crane");
    await form.getByRole("button", { name: "Create machine" }).click();
    await page.getByRole("heading", { name: "crane-main" }).waitFor();
    const partId = /#\/part\/(.+)$/.exec(page.url())![1]!;

    await page.getByRole("button", { name: "New credentials file" }).click();
    const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("link", { name: "Download crane-main.json" }).click()]);
    const file = JSON.parse(readFileSync(await download.path(), "utf8")) as MachineCredentials;
    expect(file.cloud.id).toBe(partId);
    const device = await signedInClient(RobotService, cloud.url, file.cloud.api_key);
    expect((await device.config({ id: partId })).config?.cloud?.id).toBe(partId);

    // The machine uploads a diagnostics file; its page lists it and hands back the same bytes.
    const content = Buffer.from(`diagnostics ${"x".repeat(150_000)} end`);
    const sync = await signedInClient(DataSyncService, cloud.url, file.cloud.api_key);
    await sync.fileUpload(
      (async function* () {
        yield create(FileUploadRequestSchema, { uploadPacket: { case: "metadata", value: { partId, fileName: "../ftdc/diag.tar", fileExtension: ".tar" } } });
        yield create(FileUploadRequestSchema, { uploadPacket: { case: "fileContents", value: { data: content } } });
      })(),
    );
    await page.reload();
    const files = page.getByRole("region", { name: "Diagnostics" });
    await files.getByRole("button", { name: "Download ../ftdc/diag.tar" }).click();
    const [saved] = await Promise.all([page.waitForEvent("download"), files.getByRole("link", { name: "Save diag.tar" }).click()]);
    expect(saved.suggestedFilename()).toBe("diag.tar");
    expect(createHash("sha256").update(readFileSync(await saved.path())).digest("hex")).toBe(createHash("sha256").update(content).digest("hex"));
    await screenshots(page, "17-new-machine");
  });

  it("shows a machine's parts, adds one, and removes the machine with its keys", async () => {
    const dredger = cloud.createMachine("dredger");
    const app = await signedInClient(AppService, cloud.url, cloud.init.api_key);
    const page = await browser.newPage();
    await signInAt(page, cloud.url, OWNER);
    await page.getByRole("region", { name: "Fleet" }).getByRole("link", { name: "dredger", exact: true }).click();
    await page.getByRole("heading", { name: "dredger", exact: true }).waitFor();
    const parts = page.getByRole("region", { name: "Parts" });
    await expect.poll(() => parts.locator("tbody tr td:first-child").allTextContents()).toEqual(["dredger-main (main)"]);
    await parts.getByLabel("Part name").fill("camera-pi");
    await parts.getByRole("button", { name: "Add part" }).click();
    await expect.poll(() => parts.locator("tbody tr td:first-child").allTextContents()).toEqual(["dredger-main (main)", "camera-pi"]);
    const machineId = /#\/machine\/(.+)$/.exec(page.url())![1]!;
    expect((await app.getRobotParts({ robotId: machineId })).parts.map((p) => p.name).sort()).toEqual(["camera-pi", "dredger-main"]);
    await screenshots(page, "17-machine");
    await parts.getByRole("link", { name: "camera-pi" }).click();
    await page.getByRole("heading", { name: "camera-pi" }).waitFor();

    // Removed after the person confirms: gone from the fleet, and its main part's key refused.
    await page.goBack();
    page.once("dialog", (dialog) => void dialog.accept());
    await page.getByRole("button", { name: "Remove machine" }).click();
    await page.getByRole("region", { name: "Fleet" }).waitFor();
    await expect.poll(() => page.getByRole("region", { name: "Fleet" }).getByRole("link", { name: "dredger", exact: true }).count()).toBe(0);
    const device = await signedInClient(RobotService, cloud.url, dredger.cloud.api_key).then(
      (client) => client.config({ id: dredger.cloud.id }).then(() => "ok"),
      (thrown: unknown) => Code[ConnectError.from(thrown).code],
    );
    expect(device).toBe("Unauthenticated");
  });

  it("makes an organisation key that works, revokes it, and downloads the CA certificate", async () => {
    const page = await browser.newPage({ acceptDownloads: true });
    await signInAt(page, `${cloud.url}/#/keys`, OWNER);
    const keys = page.getByRole("region", { name: /^API keys of / });
    await keys.getByLabel("New key", { exact: true }).fill("dashboard");
    await keys.getByRole("button", { name: "Create key" }).click();
    const secret = await keys.locator(".secret pre").textContent();
    const [, id, key] = /key id: (\S+)\nkey: +(\S+)/.exec(secret ?? "")!;
    const app = await signedInClient(AppService, cloud.url, { id: id!, key: key! });
    expect((await app.listOrganizations({})).organizations).toHaveLength(1);
    await expect.poll(() => keys.locator("tbody tr", { hasText: "dashboard" }).count()).toBe(1);
    await screenshots(page, "18-keys");

    await keys.getByRole("button", { name: "Revoke dashboard" }).click();
    await expect.poll(() => keys.locator("tbody tr", { hasText: "dashboard" }).count()).toBe(0);
    const refused = await app.listOrganizations({}).then(
      () => "ok",
      (thrown: unknown) => Code[ConnectError.from(thrown).code],
    );
    expect(refused).toBe("Unauthenticated");

    const [ca] = await Promise.all([page.waitForEvent("download"), page.getByRole("link", { name: "Download the CA certificate" }).click()]);
    expect(readFileSync(await ca.path(), "utf8")).toMatch(/^-----BEGIN CERTIFICATE-----/);
  });
});
