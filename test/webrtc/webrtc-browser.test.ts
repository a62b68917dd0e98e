// A page in headless Chromium reaching svc-server over the browser's own WebRTC (libwebrtc
// talking to the server's libdatachannel), with the official SDK bundled for the browser and the
// machine's own address as the signaling address: the page is served by the machine itself
// (-shareddir), as a local control page would be.
import { build } from "esbuild";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium, type Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { requireTools } from "../helpers/system-tools.js";
import { startSvcServer, type SvcServerProcess } from "../helpers/svc-server-process.js";

const pageScript = `
import * as VIAM from "@viamrobotics/sdk";
window.overWebRtc = async (apiKey) => {
  const robot = new VIAM.RobotClient();
  const credentials = apiKey && { type: "api-key", payload: apiKey.key, authEntity: apiKey.id };
  await robot.dial({ host: location.host, signalingAddress: location.origin, noReconnect: true, iceServers: [], ...(credentials ? { credentials } : {}) });
  try {
    const names = (await robot.resourceNames()).map((n) => n.subtype + "/" + n.name);
    const readings = Object.keys(await new VIAM.SensorClient(robot, "temp").getReadings());
    const motor = new VIAM.MotorClient(robot, "left");
    await motor.setPower(0.25);
    const moving = await motor.isMoving();
    await motor.stop();
    return { names, readings, moving, ice: robot.peerConn?.iceConnectionState };
  } finally {
    await robot.disconnect();
  }
};
`;

let dir: string;
let server: SvcServerProcess;
let browser: Browser;

beforeAll(async () => {
  requireTools("chromium");
  dir = mkdtempSync(join(tmpdir(), "svc-webrtc-page-"));
  writeFileSync(join(dir, "page.js"), pageScript);
  await build({ entryPoints: [join(dir, "page.js")], bundle: true, format: "esm", platform: "browser", outfile: join(dir, "site", "page.js"), logLevel: "error", nodePaths: [join(process.cwd(), "node_modules")] });
  writeFileSync(join(dir, "site", "index.html"), '<!doctype html><title>svc over WebRTC</title><script type="module" src="page.js"></script>');
  server = await startSvcServer(
    {
      network: { bind_address: "127.0.0.1:0" },
      components: [
        { name: "temp", api: "rdk:component:sensor", model: "rdk:builtin:fake" },
        { name: "left", api: "rdk:component:motor", model: "rdk:builtin:fake" },
      ],
      auth: { handlers: [{ type: "api-key", config: { k1: "browser-key-value", keys: ["k1"] } }] },
    },
    { args: ["-shareddir", join(dir, "site")] },
  );
  browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: ["--no-sandbox", "--headless"] });
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe("Chromium's WebRTC", () => {
  it("dials the machine through its own signaling, with an API key, and drives a sensor and a motor", async () => {
    const page = await browser.newPage();
    await page.goto(server.url);
    await page.waitForFunction("typeof window.overWebRtc === 'function'");
    const result = await page.evaluate("window.overWebRtc({ id: 'k1', key: 'browser-key-value' })");
    expect(result).toMatchObject({ names: expect.arrayContaining(["sensor/temp", "motor/left"]), moving: true, ice: "connected" });
    expect((result as { readings: string[] }).readings.length).toBeGreaterThan(0);
    expect(server.stdout()).toContain("WebRTC connection open");
    await page.close();
  });

  it("is refused without the key", async () => {
    const page = await browser.newPage();
    await page.goto(server.url);
    await page.waitForFunction("typeof window.overWebRtc === 'function'");
    const refused = await page.evaluate("window.overWebRtc().then(() => 'connected', (e) => String(e.cause?.[0] ?? e))");
    expect(refused).toMatch(/authentication required|unauthenticated/i);
    await page.close();
  });
});
