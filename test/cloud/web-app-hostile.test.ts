// The web app's hostile half, in headless Chromium: a page of another origin, opened in the browser
// of a person signed in to svc-cloud, cannot change anything with their session (its form posts and
// fetches carry the cookie, since another port of localhost is the same site, but not svc-cloud's
// Origin); markup in what machines and people write (log lines, config values in the editor and
// the history's diff) is shown as text,
// never run; and a signed-out browser reaches no API.
import { createServer, type Server } from "node:http";
import { timestampFromMs } from "@bufbuild/protobuf/wkt";
import { chromium, type Browser, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AppService } from "../../proto/gen/app/v1/app_pb.js";
import { RobotService } from "../../proto/gen/app/v1/robot_pb.js";
import { signedInClient } from "../helpers/cloud-client.js";
import { signInAt } from "../helpers/cloud-browser.js";
import { startCloud, type CloudProcess, type MachineCredentials } from "../helpers/cloud-process.js";

const OWNER = { email: "owner@example.com", password: "correct horse battery" };
const MARKUP = `<img src=x onerror="window.__pwned=1">`;
let browser: Browser;
let cloud: CloudProcess;
let rover: MachineCredentials;
let evil: Server;
let evilUrl: string;
let evilPage = "";

beforeAll(async () => {
  cloud = await startCloud(OWNER);
  rover = cloud.createMachine("rover");
  const app = await signedInClient(AppService, cloud.url, cloud.init.api_key);
  await app.updateRobotPart({ id: rover.cloud.id, name: "", robotConfig: { components: [{ name: "temp", api: "rdk:component:sensor", model: "fake", attributes: { note: MARKUP } }] } });
  const device = await signedInClient(RobotService, cloud.url, rover.cloud.api_key);
  await device.log({ id: rover.cloud.id, logs: [{ host: "rover", level: "error", time: timestampFromMs(Date.now()), loggerName: MARKUP, message: MARKUP, caller: {}, stack: "", fields: [] }] });
  evil = createServer((_req, res) => res.writeHead(200, { "content-type": "text/html" }).end(evilPage));
  await new Promise<void>((resolve) => evil.listen(0, "localhost", resolve));
  evilUrl = `http://localhost:${(evil.address() as { port: number }).port}`;
  browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: ["--no-sandbox", "--headless"] });
});
afterAll(async () => {
  await browser?.close();
  await new Promise((resolve) => evil?.close(resolve));
  await cloud?.stop();
});

async function signedInPage(): Promise<Page> {
  const page = await (await browser.newContext()).newPage();
  await signInAt(page, cloud.url, OWNER);
  await page.getByRole("region", { name: "Fleet" }).getByRole("cell", { name: "rover", exact: true }).waitFor();
  return page;
}

describe("the web app against hostile pages and content", () => {
  it("lets another origin's page change nothing with the person's session", async () => {
    const app = await signedInClient(AppService, cloud.url, cloud.init.api_key);
    const machineId = (await app.getRobotPart({ id: rover.cloud.id })).part!.robot;
    const page = await signedInPage();
    const target = (method: string) => `${cloud.url}/viam.app.v1.AppService/${method}`;
    evilPage = `<!doctype html><body>
      <form id="f" method="POST" action="${target("DeleteRobot")}" enctype="text/plain" target="sink"><input name='{"id":"${machineId}","x":"' value='"}'></form>
      <iframe name="sink"></iframe>
      <script>
        const sent = [
          fetch(${JSON.stringify(target("DeleteRobot"))}, { method: "POST", mode: "no-cors", credentials: "include", headers: { "content-type": "text/plain" }, body: JSON.stringify({ id: ${JSON.stringify(machineId)} }) }),
          fetch(${JSON.stringify(target("UpdateRobot"))}, { method: "POST", credentials: "include", headers: { "content-type": "application/json" }, body: JSON.stringify({ id: ${JSON.stringify(machineId)}, name: "stolen", location: "" }) }).catch(() => "blocked"),
          fetch(${JSON.stringify(`${cloud.url}/app/session`)}, { method: "POST", mode: "no-cors", credentials: "include", headers: { "content-type": "text/plain" }, body: JSON.stringify(${JSON.stringify(OWNER)}) }),
        ];
        document.getElementById("f").submit();
        Promise.allSettled(sent).then(() => (document.title = "done"));
      </script></body>`;
    const attacker = await page.context().newPage();
    await attacker.goto(evilUrl);
    await expect.poll(() => attacker.title()).toBe("done");
    await attacker.waitForTimeout(200);

    const robot = await app.getRobot({ id: machineId });
    expect(robot.robot?.name).toBe("rover");
    // The person is still signed in, and their fleet is as it was.
    await page.reload();
    await page.getByRole("region", { name: "Fleet" }).getByRole("cell", { name: "rover", exact: true }).waitFor();
  });

  it("shows markup in log lines and config values as text", async () => {
    const page = await signedInPage();
    await page.getByRole("link", { name: "rover-main" }).click();
    const logs = page.getByRole("region", { name: "Logs" });
    await expect.poll(() => logs.locator("table.logs tbody tr td:nth-child(4)").allTextContents()).toEqual([MARKUP]);
    const editor = page.getByRole("region", { name: "Config" }).locator(".cm-content");
    await expect.poll(() => editor.textContent()).toContain(JSON.stringify(MARKUP));
    // The history's diff shows it as text as well.
    await page.getByRole("region", { name: "History" }).getByRole("button", { name: "Diff 1" }).click();
    expect(await page.getByRole("figure", { name: "Revision 1 against the current config" }).textContent()).toContain(JSON.stringify(MARKUP));
    expect(await page.locator("img").count()).toBe(0);
    expect(await page.evaluate("window.__pwned")).toBeUndefined();
  });

  it("reaches no API signed out", async () => {
    const page = await browser.newPage();
    await page.goto(cloud.url);
    await page.getByRole("form", { name: "Sign in" }).waitFor();
    const status = await page.evaluate(`fetch("/viam.app.v1.AppService/ListOrganizations", { method: "POST", headers: { "content-type": "application/json" }, body: "{}" }).then((r) => r.status)`);
    expect(status).toBe(401);
  });
});
