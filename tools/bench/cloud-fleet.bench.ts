// svc-cloud with a fleet on it: 1,000 simulated machines, each on its own HTTP/2 connection signed
// in with its own part key, waiting on WatchRevisions as svc-server does. All of them use one
// fragment; one edit of it (AppService.UpdateFragment) makes a new revision for every part, and
// each machine fetches and decodes its whole new Config when told. Figures: from the edit's start
// to each machine holding the new Config (p50, p99, over five edits after a first one, which is
// reported on its own; BENCH_CLOUD_EDITS changes how many), svc-cloud's CPU per machine
// and resident memory with all of them connected, read from /proc. The machines run in this
// process, on the other core, with a lean client (fleet-machines.ts), and their own CPU is reported
// beside the server's: a general-purpose client here cost more than the server it measured.
import { createClient } from "@connectrpc/connect";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { AppService } from "../../proto/gen/app/v1/app_pb.js";
import { bearer, cloudTransport, signIn } from "../../test/helpers/cloud-client.js";
import { startCloud } from "../../test/helpers/cloud-process.js";
import { createSimulatedFleet, percentile } from "./fleet-machines.js";
import { FRAGMENT_NAME, fragmentConfig, seedFleet } from "./fleet-seed.js";
import { cpuSeconds } from "./grpc-load.js";
import { report } from "./report.js";
import { residentMB } from "./resident-memory.js";

const MACHINES = Number(process.env.BENCH_CLOUD_MACHINES ?? 1000);
const EDITS = Number(process.env.BENCH_CLOUD_EDITS ?? 5);

const dataDir = mkdtempSync(join(tmpdir(), "svc-cloud-fleet-bench-"));
const { init, fragmentId, parts } = await seedFleet(dataDir, MACHINES);
const cloud = await startCloud({ reuse: { dataDir, init } });
const fleet = createSimulatedFleet();
try {
  const { url } = cloud;
  await fleet.connect(parts, () => url);
  await new Promise((resolve) => setTimeout(resolve, 2000));
  report(`cloud resident memory with ${MACHINES} machines connected`, residentMB(cloud.child.pid!), "MB", "< 250 MB");

  const app = createClient(AppService, cloudTransport(url, "grpc", [bearer(await signIn(url, init.api_key.id, init.api_key.key))]));
  let edits = 0;
  /** One edit: from its start to each machine holding the new Config (ms), and how long the edit call itself took. */
  const edit = () => {
    const revision = ++edits;
    return fleet.timeEdit(`edit ${revision}`, () => app.updateFragment({ id: fragmentId, name: FRAGMENT_NAME, config: fragmentConfig(revision) }));
  };

  // The first edit after a start meets code the JIT has not yet compiled for it, on both sides
  // (the simulated machines stand in for a thousand devices, each warm on its own): it is
  // reported on its own, and the figures with the goal are those of a running service.
  const first = await edit();
  report(`cloud first edit after a start to ${MACHINES} machines' new Config p99`, percentile(first.latencies, 99), "ms");
  const latencies: number[] = [];
  let editMs = 0;
  const cpuBefore = cpuSeconds(cloud.child.pid!);
  const clientBefore = process.cpuUsage();
  for (let n = 0; n < EDITS; n++) {
    const done = await edit();
    latencies.push(...done.latencies);
    editMs += done.callMs;
  }
  const cpuPerMachine = (cpuSeconds(cloud.child.pid!) - cpuBefore) / (EDITS * MACHINES);
  const clientCpu = process.cpuUsage(clientBefore);
  latencies.sort((a, b) => a - b);
  report(`cloud fragment edit saving ${MACHINES} parts' revisions (UpdateFragment)`, editMs / EDITS, "ms");
  report("cloud server CPU per machine told and served its new Config", cpuPerMachine * 1e6, "us");
  report("cloud simulated machines' own CPU per machine (the bench's client side)", (clientCpu.user + clientCpu.system) / (EDITS * MACHINES), "us");
  report(`cloud edit to ${MACHINES} machines' new Config p50, over ${EDITS} edits of a running service`, percentile(latencies, 50), "ms");
  report(`cloud edit to ${MACHINES} machines' new Config p99, over ${EDITS} edits of a running service`, percentile(latencies, 99), "ms", "p99 < 1000 ms");
} finally {
  fleet.close();
  await cloud.stop();
  rmSync(dataDir, { recursive: true, force: true });
}
process.exit(0);
