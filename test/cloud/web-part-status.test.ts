// A part's status on its page, in headless Chromium: never seen at first; then the versions its
// agent reported (a newer svc-server installed, waiting for a restart) and the revision its
// machine refused with the reason, as the person who saved it needs to read it; and once the
// machine takes the next revision, that it runs the newest. Screenshot in test/artifacts/cloud-web/.
import { chromium, type Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AgentDeviceService } from "../../proto/gen/app/agent/v1/agent_pb.js";
import { CloudService } from "../../proto/gen/svc/cloud/v1/cloud_pb.js";
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

describe("a part's status in the web app", () => {
  it("shows when the machine was seen, what it runs and installed, and a revision it refused with the reason", async () => {
    const rover = cloud.createMachine("rover");
    const page = await browser.newPage();
    await signInAt(page, `${cloud.url}/#/part/${rover.cloud.id}`, OWNER);
    const status = page.getByRole("region", { name: "Status" });
    const row = (name: string) => status.getByRole("row", { name: new RegExp(`^${name}`) }).locator("td");
    await expect.poll(() => row("Last seen").textContent()).toBe("never");
    expect(await row("svc-server").textContent()).toBe("not reported");
    expect(await status.textContent()).toContain("The machine has not said which revision it runs.");

    const agent = await signedInClient(AgentDeviceService, cloud.url, rover.cloud.api_key);
    await agent.deviceAgentConfig({
      id: rover.cloud.id,
      hostInfo: { platform: "linux/amd64", distro: "debian:12" },
      versionInfo: { agentRunning: "1.0.0", agentInstalled: "1.0.0", viamServerRunning: "1.0.0", viamServerInstalled: "1.1.0" },
    });
    const device = await signedInClient(CloudService, cloud.url, rover.cloud.api_key);
    await device.reportConfigStatus({ partId: rover.cloud.id, runningRevision: "1", refusedRevision: "2", refusedReason: "processes: this machine runs no processes (-untrusted-env)" });

    // The page reads the status again by itself.
    await expect.poll(() => row("svc-server").textContent(), { timeout: 15_000 }).toBe("1.0.0 (1.1.0 installed, runs after a restart)");
    expect(await row("svc-agent").textContent()).toBe("1.0.0");
    expect(await row("Platform").textContent()).toBe("debian:12, linux/amd64");
    expect(await row("Last seen").textContent()).not.toBe("never");
    expect(await status.getByRole("alert", { name: "Config refused" }).textContent()).toBe(
      "The machine refused revision 2 and keeps running 1: processes: this machine runs no processes (-untrusted-env)",
    );
    await screenshots(page, "22-part-status");

    await device.reportConfigStatus({ partId: rover.cloud.id, runningRevision: "1", refusedRevision: "", refusedReason: "" });
    await expect.poll(() => status.getByLabel("Config state").textContent(), { timeout: 15_000 }).toBe("The machine runs revision 1, the newest.");
    expect(await status.getByRole("alert").count()).toBe(0);
  });
});
