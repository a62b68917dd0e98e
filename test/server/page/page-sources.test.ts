// Where the configuration comes from decides what the page may do with it: svc-cloud's is shown
// read-only (its secret kept on the machine) and a write is refused saying to edit it there; the
// built-in simulated machine's (svc-server without -config) likewise, saying how to get a file to
// edit. With -shareddir the folder keeps `/`, and the page moves to `/page/`.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { pageCall, putConfig } from "../../helpers/page-client.js";
import { claimPort } from "../../helpers/port-claim.js";
import { distLinux } from "../../helpers/run-cli.js";
import { fakeMachine } from "../../helpers/page-browser.js";
import { startSvcServer, type SvcServerProcess } from "../../helpers/svc-server-process.js";
import { startBlock, makeGuideHome, type RunningBlock } from "../../helpers/guide-shell.js";
import { eventually } from "../../helpers/eventually.js";
import { cloudManagedMachine, type CloudManaged } from "../../helpers/cloud-managed.js";
import { startCloud, type CloudProcess } from "../../helpers/cloud-process.js";

const home = makeGuideHome("svc-page-sources-");
const shared = mkdtempSync(join(tmpdir(), "svc-page-shared-"));
let givePortBack: (() => Promise<void>) | undefined;
let builtin: RunningBlock | undefined;
let withShared: SvcServerProcess;
let cloud: CloudProcess | undefined;
let managed: CloudManaged | undefined;
let managedServer: SvcServerProcess | undefined;

beforeAll(async () => {
  writeFileSync(join(shared, "index.html"), "<!doctype html><title>shared</title>the shared folder\n");
  withShared = await startSvcServer(fakeMachine(), { args: ["-shareddir", shared], startTimeoutMs: 30_000 });
  givePortBack = await claimPort(8080);
}, 700_000);
afterAll(async () => {
  await managedServer?.stop();
  managed?.remove();
  await cloud?.stop();
  await builtin?.stop();
  await givePortBack?.();
  await withShared?.stop();
  home.remove();
  rmSync(shared, { recursive: true, force: true });
});

describe("the configuration's source on the page", () => {
  it("shows the built-in machine's configuration read-only and refuses a write, saying how to edit one", async () => {
    builtin = startBlock(`exec ${JSON.stringify(process.execPath)} ${JSON.stringify(join(distLinux, "svc-server.mjs"))} -disable-mdns`, home);
    const url = "http://localhost:8080";
    const config = await eventually(async () => {
      const answer = await pageCall(url, "/page/api/config").catch(() => undefined);
      return answer?.status === 200 && answer.body.revision ? answer.body : undefined;
    }, "the built-in machine's configuration");
    expect(config.source).toEqual({ kind: "builtin", label: "the built-in simulated machine (examples/sim-machine.json)" });
    expect(config.editable).toBe(false);
    expect(JSON.parse(config.text as string).components.length).toBeGreaterThan(0);
    const write = await putConfig(url, "{}");
    expect(write.status).toBe(409);
    expect(write.body.error).toBe("this is the built-in simulated machine: start svc-server with -config FILE to edit a configuration here");
  });

  it("shows svc-cloud's configuration read-only, without the machine's secret, and refuses a write", async () => {
    cloud = await startCloud();
    managed = await cloudManagedMachine(cloud, "rover");
    await managed.edit({ components: [{ name: "temp", api: "rdk:component:sensor", model: "fake" }] });
    managedServer = await managed.start();
    const url = managedServer.url;
    const config = await eventually(async () => {
      const answer = await pageCall(url, "/page/api/config");
      return answer.status === 200 && (answer.body.text as string).includes('"temp"') ? answer.body : undefined;
    }, "svc-cloud's configuration on the page");
    expect(config.source).toEqual({ kind: "cloud", label: "svc-cloud" });
    expect(config.editable).toBe(false);
    // The part's own key, which signs it in to svc-cloud, is not shown.
    const partKey = (managed.credentials.cloud as { api_key: { key: string } }).api_key.key;
    expect(partKey.length).toBeGreaterThan(10);
    expect(config.text as string).not.toContain(partKey);
    expect(JSON.parse(config.text as string).components.map((c: { name: string }) => c.name)).toEqual(["temp"]);
    const write = await putConfig(url, "{}");
    expect(write.status).toBe(409);
    expect(write.body.error).toBe("this machine's configuration comes from svc-cloud: edit it there");
  });

  it("leaves / to -shareddir and serves the page at /page/", async () => {
    expect((await pageCall(withShared.url, "/")).text).toContain("the shared folder");
    const page = await pageCall(withShared.url, "/page/");
    expect(page.status).toBe(200);
    expect(page.text).toContain('<script type="module" src="/page/app.js"></script>');
  });
});
