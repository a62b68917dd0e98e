// svc-cloud with a fleet on it: 1,000 simulated machines, each on its own HTTP/2 connection signed
// in with its own part key, waiting on WatchRevisions as svc-server does. All of them use one
// fragment; one edit of it (AppService.UpdateFragment) makes a new revision for every part, and
// each machine fetches and decodes its whole new Config when told. Figures: from the edit's start
// to each machine holding the new Config (p50, p99, over five edits after a first one, which is
// reported on its own; BENCH_CLOUD_EDITS changes how many), svc-cloud's CPU per machine
// and resident memory with all of them connected, read from /proc. The machines run in this
// process, on the other core, with a lean client (grpc-session.ts), and their own CPU is reported
// beside the server's: a general-purpose client here cost more than the server it measured.
import { createClient } from "@connectrpc/connect";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { AppService } from "../../proto/gen/app/v1/app_pb.js";
import { ConfigRequestSchema, ConfigResponseSchema } from "../../proto/gen/app/v1/robot_pb.js";
import { AuthenticateRequestSchema, AuthenticateResponseSchema } from "../../proto/gen/proto/rpc/v1/auth_pb.js";
import { RevisionNoticeSchema, WatchRevisionsRequestSchema } from "../../proto/gen/svc/cloud/v1/cloud_pb.js";
import { initialise } from "../../targets/cloud/commands/init.js";
import { createFragment } from "../../targets/cloud/fleet/save-fragment.js";
import { createMachine } from "../../targets/cloud/storage/fleet.js";
import { openStore } from "../../targets/cloud/storage/open-store.js";
import { saveRevision } from "../../targets/cloud/storage/revisions.js";
import { newId } from "../../targets/cloud/storage/secrets.js";
import { bearer, cloudTransport, signIn } from "../../test/helpers/cloud-client.js";
import { startCloud } from "../../test/helpers/cloud-process.js";
import { connectGrpcSession } from "./grpc-session.js";
import { report } from "./report.js";

const MACHINES = Number(process.env.BENCH_CLOUD_MACHINES ?? 1000);
const EDITS = Number(process.env.BENCH_CLOUD_EDITS ?? 5);

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

/**
 * One simulated machine: its own HTTP/2 connection and token, its watch, and the whole new Config
 * fetched and decoded when told. Its client is lean (grpc-session.ts) so that a thousand of them
 * on one core cost less than the server they measure.
 */
function machine(url: string, partId: string, key: { id: string; key: string }, fetched: (revision: number) => void) {
  const grpc = connectGrpcSession(url);
  const fetchConfig = () => grpc.unary("/viam.app.v1.RobotService/Config", ConfigRequestSchema, { id: partId }, ConfigResponseSchema);
  const ready = (async () => {
    const { accessToken } = await grpc.unary("/proto.rpc.v1.AuthService/Authenticate", AuthenticateRequestSchema, { entity: key.id, credentials: { type: "api-key", payload: key.key } }, AuthenticateResponseSchema);
    grpc.setHeader("authorization", `Bearer ${accessToken}`);
    await new Promise<void>((resolve, reject) => {
      let known = -1;
      // Notices are handled one at a time: a newer one while a fetch runs is fetched after it.
      let fetching = Promise.resolve();
      grpc
        .serverStream("/svc.cloud.v1.CloudService/WatchRevisions", WatchRevisionsRequestSchema, { partId }, RevisionNoticeSchema, (notice) => {
          const revision = Number(notice.revision);
          fetching = fetching.then(async () => {
            if (revision <= known) return;
            const first = known === -1;
            await fetchConfig();
            known = revision;
            if (first) resolve();
            else fetched(revision);
          }, reject);
        })
        .catch(reject);
    });
  })();
  return { ready, close: () => grpc.close() };
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
  let edits = 0;
  /** One edit: from its start to each machine holding the new Config (ms), and how long the edit call itself took. */
  const edit = async () => {
    const revision = ++edits;
    arrivals.clear();
    const start = performance.now();
    await app.updateFragment({ id: fragmentId, name: "sensors", config: fragmentConfig(revision) });
    const callMs = performance.now() - start;
    const deadline = start + 60_000;
    for (;;) {
      const counts = [...arrivals.values()].reduce((n, times) => n + times.length, 0);
      if (counts >= MACHINES || performance.now() > deadline) break;
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    const times = [...arrivals.values()].flat();
    if (times.length < MACHINES) throw new Error(`edit ${revision}: only ${times.length} of ${MACHINES} machines fetched the new config within a minute`);
    return { latencies: times.map((t) => t - start).sort((a, b) => a - b), callMs };
  };

  // The first edit after a start meets code the JIT has not yet compiled for it, on both sides
  // (the simulated machines stand in for a thousand devices, each warm on its own): it is
  // reported on its own, and the figures with the goal are those of a running service.
  const first = await edit();
  report(`cloud first edit after a start to ${MACHINES} machines' new Config p99`, percentile(first.latencies, 99), "ms");
  const latencies: number[] = [];
  let editMs = 0;
  const cpuBefore = cpuMs(cloud.child.pid!);
  const clientBefore = process.cpuUsage();
  for (let n = 0; n < EDITS; n++) {
    const done = await edit();
    latencies.push(...done.latencies);
    editMs += done.callMs;
  }
  const cpuPerMachine = (cpuMs(cloud.child.pid!) - cpuBefore) / (EDITS * MACHINES);
  const clientCpu = process.cpuUsage(clientBefore);
  latencies.sort((a, b) => a - b);
  report(`cloud fragment edit saving ${MACHINES} parts' revisions (UpdateFragment)`, editMs / EDITS, "ms");
  report("cloud server CPU per machine told and served its new Config", cpuPerMachine * 1000, "us");
  report("cloud simulated machines' own CPU per machine (the bench's client side)", (clientCpu.user + clientCpu.system) / (EDITS * MACHINES), "us");
  report(`cloud edit to ${MACHINES} machines' new Config p50, over ${EDITS} edits of a running service`, percentile(latencies, 50), "ms");
  report(`cloud edit to ${MACHINES} machines' new Config p99, over ${EDITS} edits of a running service`, percentile(latencies, 99), "ms", "p99 < 1000 ms");
} finally {
  for (const m of machines) m.close();
  await cloud.stop();
  rmSync(dataDir, { recursive: true, force: true });
}
process.exit(0);
