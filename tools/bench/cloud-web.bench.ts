// svc-cloud's web app in headless Chromium: the fleet page of 1,000 machines (BENCH_CLOUD_MACHINES),
// from navigating to the page, signed in, to every machine's row on screen, the page able to take
// a click (Playwright's click on the last row's link resolves). The median of five loads, the
// browser started and the first load made beforehand. A person keeps this page open all day; the
// goal is that it answers at once.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium } from "playwright-core";
import { initialise } from "../../targets/cloud/commands/init.js";
import { createMachine } from "../../targets/cloud/storage/fleet.js";
import { openStore } from "../../targets/cloud/storage/open-store.js";
import { signInAt } from "../../test/helpers/cloud-browser.js";
import { startCloud } from "../../test/helpers/cloud-process.js";
import { report } from "./report.js";

const MACHINES = Number(process.env.BENCH_CLOUD_MACHINES ?? 1000);
const LOADS = 5;
const OWNER = { email: "owner@example.com", password: "correct horse battery" };

const dataDir = mkdtempSync(join(tmpdir(), "svc-cloud-web-bench-"));
const store = await openStore(dataDir);
const now = Date.now();
const init = await initialise(store, { now, ...OWNER });
for (let i = 0; i < MACHINES; i++) await createMachine(store.db, { locationId: init.location_id, organizationId: init.organization_id, name: `m${i}`, editedBy: "bench", now });
await store.close();

const cloud = await startCloud({ reuse: { dataDir, init } });
const browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: ["--no-sandbox", "--headless"] });
try {
  const page = await browser.newPage();
  await signInAt(page, cloud.url, OWNER);
  const rows = page.locator("section[aria-label=Fleet] tbody tr");
  const loaded = async () => {
    const began = performance.now();
    await page.goto(`${cloud.url}/#/`);
    await rows.nth(MACHINES - 1).waitFor();
    await page.locator('section[aria-label=Fleet] tbody tr:last-child a[href^="#/part/"]').click({ trial: true });
    const ms = performance.now() - began;
    if ((await rows.count()) !== MACHINES) throw new Error(`the fleet page shows ${await rows.count()} machines, not ${MACHINES}`);
    return ms;
  };
  await loaded();
  const times: number[] = [];
  for (let i = 0; i < LOADS; i++) {
    await page.goto("about:blank");
    times.push(await loaded());
  }
  times.sort((a, b) => a - b);
  report(`cloud web app fleet page of ${MACHINES} machines, load to interactive (median of ${LOADS})`, times[Math.floor(LOADS / 2)]!, "ms", "< 1000 ms");
} finally {
  await browser.close();
  await cloud.stop();
  rmSync(dataDir, { recursive: true, force: true });
}
process.exit(0);
