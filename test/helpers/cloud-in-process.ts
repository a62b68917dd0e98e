// svc-cloud in this process, on a clock the test moves: for what a real process cannot show in a
// test's time (tokens expiring, signing keys ageing). The store is initialised as `svc-cloud init`
// does; the folder goes with `stop()`.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createManualClock, type ManualClock } from "../../core/manual-clock.js";
import { initialise, type InitResult } from "../../targets/cloud/commands/init.js";
import { startCloudServer, type CloudServer } from "../../targets/cloud/start-cloud-server.js";
import { openStore } from "../../targets/cloud/storage/open-store.js";

export interface InProcessCloud {
  readonly url: string;
  readonly server: CloudServer;
  readonly clock: ManualClock;
  readonly init: InitResult;
  readonly logs: string[];
  stop(): Promise<void>;
}

/** `bodyStallMs`: the real-time limit on a silent request body, for a test about the clock's limits alone. */
export async function startInProcessCloud(options: { bodyStallMs?: number } = {}): Promise<InProcessCloud> {
  const dataDir = mkdtempSync(join(tmpdir(), "svc-cloud-inproc-"));
  const clock = createManualClock(Date.UTC(2026, 0, 1));
  const logs: string[] = [];
  try {
    const store = await openStore(dataDir);
    const init = await initialise(store, { now: clock.now(), email: "owner@example.com", password: "correct horse" }).finally(() => store.close());
    const server = await startCloudServer({ dataDir, host: "localhost", port: 0, clock, log: (line) => logs.push(line), bodyStallMs: options.bodyStallMs });
    return {
      url: `http://localhost:${server.port}`,
      server,
      clock,
      init,
      logs,
      stop: async () => {
        await server.close();
        rmSync(dataDir, { recursive: true, force: true });
      },
    };
  } catch (thrown) {
    rmSync(dataDir, { recursive: true, force: true });
    throw thrown;
  }
}
