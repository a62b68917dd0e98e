// Provisioning keys on the web app's Keys page, in headless Chromium: none can be made before the
// organisation has a fragment; an owner makes one by name, location and fragment, its secret shown
// once, and it makes a machine with that fragment through the provision route; it is listed
// apart from the organisation keys, and revoking it refuses it at once. Screenshots in
// test/artifacts/cloud-web/.
import { chromium, type Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AppService } from "../../proto/gen/app/v1/app_pb.js";
import { signedInClient } from "../helpers/cloud-client.js";
import { screenshots, signInAt } from "../helpers/cloud-browser.js";
import { startCloud, type CloudProcess } from "../helpers/cloud-process.js";

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

const provision = (key: { id: string; key: string }, body: object) =>
  fetch(`${cloud.url}/api/json1/provision`, { method: "POST", headers: { "content-type": "application/json", key_id: key.id, key: key.key }, body: JSON.stringify(body) });

describe("provisioning keys in the web app", () => {
  it("makes one for a location and a fragment, shows its secret once, lists it and revokes it", async () => {
    const app = await signedInClient(AppService, cloud.url, cloud.init.api_key);
    const page = await browser.newPage();
    await signInAt(page, `${cloud.url}/#/keys`, OWNER);
    const region = page.getByRole("region", { name: /^Provisioning keys of / });
    await region.getByText("The organisation has no fragment yet").waitFor();
    expect(await region.getByRole("button", { name: "Create provisioning key" }).isDisabled()).toBe(true);

    const { fragment } = await app.createFragment({ organizationId: cloud.init.organization_id, name: "rover-base", config: { components: [{ name: "temp", api: "rdk:component:sensor", model: "fake" }] } as never });
    await page.reload();
    await region.getByRole("option", { name: "rover-base" }).waitFor({ state: "attached" });
    await region.getByLabel("New provisioning key", { exact: true }).fill("phone app");
    await region.getByLabel("Location").selectOption({ label: "main" });
    await region.getByLabel("Fragment").selectOption({ label: "rover-base" });
    await region.getByRole("button", { name: "Create provisioning key" }).click();
    const secret = (await region.locator(".secret pre").textContent()) ?? "";
    const [, id, key, location, fragmentId] = /key id: +(\S+)\nkey: +(\S+)\nlocation: +(\S+)\nfragment_id: +(\S+)/.exec(secret)!;
    expect([location, fragmentId]).toEqual([cloud.init.location_id, fragment!.id]);
    const row = region.locator("tbody tr", { hasText: "phone app" });
    await expect.poll(() => row.count()).toBe(1);
    expect(await row.locator("td").allTextContents()).toEqual(expect.arrayContaining(["phone app", id, "main", "rover-base"]));
    // Listed apart: the organisation keys' table does not show it.
    const organizationKeys = page.getByRole("region", { name: /^API keys of / });
    expect(await organizationKeys.locator("tbody tr", { hasText: "phone app" }).count()).toBe(0);
    await screenshots(page, "23-provisioning-keys");

    // The key makes a machine with its fragment, and only that.
    const made = await provision({ id: id!, key: key! }, { name: "from-phone", fragment_id: fragmentId });
    expect(made.status).toBe(201);
    const partId = ((await made.json()) as { cloud: { id: string } }).cloud.id;
    expect(JSON.parse((await app.getRobotPart({ id: partId })).configJson)).toEqual({ fragments: [fragmentId] });

    // Revoked from the page: the secret is gone from it, the row too, and the key is refused.
    await region.getByRole("button", { name: "Revoke provisioning key phone app" }).click();
    await expect.poll(() => row.count()).toBe(0);
    expect(await region.locator(".secret").count()).toBe(0);
    expect((await provision({ id: id!, key: key! }, { name: "again", fragment_id: fragmentId })).status).toBe(401);
  });

  it("says in words why a key cannot be made", async () => {
    const app = await signedInClient(AppService, cloud.url, cloud.init.api_key);
    const page = await browser.newPage();
    await signInAt(page, `${cloud.url}/#/keys`, OWNER);
    const region = page.getByRole("region", { name: /^Provisioning keys of / });
    const { fragment } = await app.createFragment({ organizationId: cloud.init.organization_id, name: "gone-soon", config: {} as never });
    await page.reload();
    await region.getByRole("option", { name: "gone-soon" }).waitFor({ state: "attached" });
    await region.getByLabel("New provisioning key", { exact: true }).fill("too late");
    await region.getByLabel("Fragment").selectOption({ label: "gone-soon" });
    // Removed after the page listed it: the page says so, and nothing is made.
    await app.deleteFragment({ id: fragment!.id });
    await region.getByRole("button", { name: "Create provisioning key" }).click();
    await expect.poll(() => region.getByRole("alert").textContent()).toMatch(`fragment ${fragment!.id} not found in the organisation of location ${cloud.init.location_id}`);
    expect(await region.locator("tbody tr", { hasText: "too late" }).count()).toBe(0);
  });
});
