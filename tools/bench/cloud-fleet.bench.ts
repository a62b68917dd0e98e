// svc-cloud with a fleet on it: 1,000 simulated machines, each on its own HTTP/2 connection signed
// in with its own part key, waiting on WatchRevisions as svc-server does. All of them use one
// fragment; one edit of it (AppService.UpdateFragment) makes a new revision for every part, and
// each machine fetches its whole new Config when told. Figures: from the edit's start to each
// machine holding the new Config (p50, p99, over three edits), and svc-cloud's resident memory
// with all of them connected, read from /proc.
import { createClient, type Interceptor } from "@connectrpc/connect";
import { createGrpcTransport } from "@connectrpc/connect-node";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { AppService } from "../../proto/gen/app/v1/app_pb.js";
import { RobotService } from "../../proto/gen/app/v1/robot_pb.js";
import { AuthService } from "../../proto/gen/proto/rpc/v1/auth_pb.js";
import { CloudService } from "../../proto/gen/svc/cloud/v1/cloud_pb.js";
import { initialise } from "../../targets/cloud/commands/init.js";
import { createFragment } from "../../targets/cloud/fleet/save-fragment.js";
import { createMachine } from "../../targets/cloud/storage/fleet.js";
import { openStore } from "../../targets/cloud/storage/open-store.js";
import { saveRevision } from "../../targets/cloud/storage/revisions.js";
import { newId } from "../../targets/cloud/storage/secrets.js";
import { bearer, cloudTransport, signIn } from "../../test/helpers/cloud-client.js";
import { startCloud } from "../../test/helpers/cloud-process.js";
import { report } from "./report.js";

const MACHINES = Number(process.env.BENCH_CLOUD_MACHINES ?? 1000);
const EDITS = 3;

const fragmentConfig = (n: number) => ({ components: [{ name: "temp", api: "rdk:component:sensor", model: "fake", attributes: { readings: { celsius: n } } }] });

async function seed(dataDir: string) {
  const store = await openStore(dataDir);
  try {
    const now = Date.now();
    const init = await initialise(store, { now });
    const fragmentId = newId();
    await createFragment(store.db, { organizationId: init.organization_id, id: fragmentId, name: "sensors", config: fragmentConfig(0), editedBy: "bench", now });
    const machines: { partId: string; key: { id: string; key: string } }[] = [];
    for (let i = 0; i < MACHINES; i++) {
      const made = await createMachine(store.db, { locationId: init.location_id, organizationId: init.organization_id, name: `m${i}`, editedBy: "bench", now });
      await saveRevision(store.db, { partId: made.partId, config: { fragments: [fragmentId] }, editedBy: "bench", now });
      machines.push({ partId: made.partId, key: made.partKey });
    }
    return { init, fragmentId, machines };
  } finally {
    await store.close();
  }
}

/** One simulated machine: its own connection, its own token, its watch and its Config fetches. */
function machine(url: string, partId: string, key: { id: string; key: string }, fetched: (revision: number) => void) {
  let token = "";
  const withToken: Interceptor = (next) => (req) => {
    if (token !== "") req.header.set("authorization", `Bearer ${token}`);
    return next(req);
  };
  const transport = createGrpcTransport({ baseUrl: url, interceptors: [withToken] });
  const abort = new AbortController();
  const ready = (async () => {
    ({ accessToken: token } = await createClient(AuthService, transport).authenticate({ entity: key.id, credentials: { type: "api-key", payload: key.key } }));
    const robot = createClient(RobotService, transport);
    const watch = createClient(CloudService, transport).watchRevisions({ partId }, { signal: abort.signal })[Symbol.asyncIterator]();
    let known = -1;
    const next = async () => {
      const notice = await watch.next();
      if (notice.done) return;
      const revision = Number(notice.value.revision);
      if (revision > known) {
        await robot.config({ id: partId });
        known = revision;
        fetched(revision);
      }
      return next();
    };
    const first = watch.next().then(async (notice) => {
      known = Number(notice.value!.revision);
      await robot.config({ id: partId });
    });
    await first;
    void next().catch(() => {});
  })();
  return { ready, close: () => abort.abort() };
}

/** Resident memory in MB (10^6 bytes, as the goal is written), from /proc. */
function rssMB(pid: number): number {
  const line = readFileSync(`/proc/${pid}/status`, "utf8").split("\n").find((l) => l.startsWith("VmRSS:"))!;
  return (Number(line.split(/\s+/)[1]) * 1024) / 1e6;
}

/** svc-cloud's CPU time so far (user + system), in ms, from /proc. */
function cpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

const dataDir = mkdtempSync(join(tmpdir(), "svc-cloud-fleet-bench-"));
const { init, fragmentId, machines: parts } = await seed(dataDir);
const cloud = await startCloud({ reuse: { dataDir, init } });
const machines: ReturnType<typeof machine>[] = [];
try {
  const { url } = cloud;
  const arrivals = new Map<number, number[]>();
  for (let i = 0; i < parts.length; i += 50) {
    const batch = parts.slice(i, i + 50).map((p) => machine(url, p.partId, p.key, (revision) => (arrivals.get(revision) ?? arrivals.set(revision, []).get(revision)!).push(performance.now())));
    machines.push(...batch);
    await Promise.all(batch.map((m) => m.ready));
  }
  await new Promise((resolve) => setTimeout(resolve, 2000));
  report(`cloud resident memory with ${MACHINES} machines connected`, rssMB(cloud.child.pid!), "MB", "< 250 MB");

  const app = createClient(AppService, cloudTransport(url, "grpc", [bearer(await signIn(url, init.api_key.id, init.api_key.key))]));
  const latencies: number[] = [];
  let editMs = 0;
  const cpuBefore = cpuMs(cloud.child.pid!);
  for (let edit = 1; edit <= EDITS; edit++) {
    arrivals.clear();
    const start = performance.now();
    await app.updateFragment({ id: fragmentId, name: "sensors", config: fragmentConfig(edit) });
    editMs += performance.now() - start;
    const deadline = start + 60_000;
    for (;;) {
      const counts = [...arrivals.values()].reduce((n, times) => n + times.length, 0);
      if (counts >= MACHINES || performance.now() > deadline) break;
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    const times = [...arrivals.values()].flat();
    if (times.length < MACHINES) throw new Error(`edit ${edit}: only ${times.length} of ${MACHINES} machines fetched the new config within a minute`);
    latencies.push(...times.map((t) => t - start));
  }
  const cpuPerMachine = (cpuMs(cloud.child.pid!) - cpuBefore) / (EDITS * MACHINES);
  latencies.sort((a, b) => a - b);
  report(`cloud fragment edit saving ${MACHINES} parts' revisions (UpdateFragment)`, editMs / EDITS, "ms");
  report("cloud server CPU per machine told and served its new Config", cpuPerMachine * 1000, "us");
  report(`cloud edit to ${MACHINES} machines' new Config p50`, percentile(latencies, 50), "ms");
  report(`cloud edit to ${MACHINES} machines' new Config p99`, percentile(latencies, 99), "ms", "p99 < 1000 ms");
} finally {
  for (const m of machines) m.close();
  await cloud.stop();
  rmSync(dataDir, { recursive: true, force: true });
}
process.exit(0);
