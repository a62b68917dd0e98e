// A machine managed by svc-cloud, both real processes on loopback:
// - an edit in svc-cloud (AppService.UpdateRobotPart) until the official SDK on the machine sees
//   its new component (ResourceNames), p50 and p99 over 40 edits after a first;
// - svc-server's start, svc-cloud stopped, until the SDK reads a sensor of the cached config: the
//   median of five starts;
// - a 20,000-entry log backlog (a process's output logged while svc-cloud was stopped) from
//   svc-cloud's return until every entry is in it (GetLogVolume), and the entries a second that is.
import { timestampFromMs } from "@bufbuild/protobuf/wkt";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as VIAM from "@viamrobotics/sdk";
import { AppService } from "../../proto/gen/app/v1/app_pb.js";
import { CloudService } from "../../proto/gen/svc/cloud/v1/cloud_pb.js";
import { signedInClient } from "../../test/helpers/cloud-client.js";
import { cloudManagedMachine } from "../../test/helpers/cloud-managed.js";
import { runCloud, startCloud, type CloudProcess, type InitResult } from "../../test/helpers/cloud-process.js";
import { freePort } from "../../test/helpers/free-port.js";
import { logLines } from "../../test/helpers/log-lines.js";
import { dialSdk } from "../../test/helpers/sdk-robot.js";
import type { SvcServerProcess } from "../../test/helpers/svc-server-process.js";
import { report } from "./report.js";

const EDITS = Number(process.env.BENCH_CLOUD_MACHINE_EDITS ?? 40);
const BOOTS = 5;
const BACKLOG = 20_000;

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
const median = (values: number[]) => percentile([...values].sort((a, b) => a - b), 50);
async function waitFor(done: () => boolean, what: string): Promise<void> {
  const giveUp = Date.now() + 120_000;
  while (!done()) {
    if (Date.now() > giveUp) throw new Error(`gave up waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
const sensors = (count: number) => Array.from({ length: count }, (_, i) => ({ name: `s${i}`, api: "rdk:component:sensor", model: "fake" }));

const dataDir = mkdtempSync(join(tmpdir(), "svc-cloud-machine-bench-"));
const init = JSON.parse(runCloud(["init"], dataDir).stdout) as InitResult;
const port = await freePort();
const startSameCloud = () => startCloud({ reuse: { dataDir, init }, args: ["--listen", `localhost:${port}`] });
let cloud: CloudProcess = await startSameCloud();
const machine = await cloudManagedMachine(cloud, "bench");
const app = await signedInClient(AppService, cloud.url, init.api_key);

// Stopped however the bench ends, so no server outlives it.
let server: SvcServerProcess | undefined;
try {
  await machine.edit({ components: sensors(1) });
  server = await machine.start();
  let robot = await dialSdk(server.sdkHost);
  const seen = async (name: string) => {
    for (;;) if ((await robot.resourceNames()).some((n) => n.name === name)) return;
  };
  await seen("s0");

  // Edits, each adding one sensor: from the call's start until the SDK lists it.
  const latencies: number[] = [];
  for (let i = 1; i <= EDITS + 1; i++) {
    const start = performance.now();
    await app.updateRobotPart({ id: machine.partId, name: "", robotConfig: { network: { bind_address: "localhost:0" }, components: sensors(i + 1) } as never });
    await seen(`s${i}`);
    if (i > 1) latencies.push(performance.now() - start);
  }
  latencies.sort((a, b) => a - b);
  report(`cloud edit to visible through the SDK on the machine p50, over ${EDITS} edits`, percentile(latencies, 50), "ms");
  report(`cloud edit to visible through the SDK on the machine p99, over ${EDITS} edits`, percentile(latencies, 99), "ms", "p99 < 1000 ms");
  await robot.disconnect();
  await server.stop();

  // Boots from the cache with svc-cloud gone.
  await cloud.stop();
  const boots: number[] = [];
  for (let i = 0; i < BOOTS; i++) {
    const start = performance.now();
    server = await machine.start();
    robot = await dialSdk(server.sdkHost);
    await new VIAM.SensorClient(robot, "s0").getReadings();
    boots.push(performance.now() - start);
    await robot.disconnect();
    if (i < BOOTS - 1) await server.stop();
  }
  report(`svc-server start to a sensor read through the SDK, from its cache with svc-cloud unreachable (median of ${BOOTS})`, median(boots), "ms", "< 1000 ms");

  // A backlog made while svc-cloud is away: a process's output, one entry a line, printed once
  // the cloud has stopped (the process waits for a file).
  await server.stop();
  cloud = await startSameCloud();
  const go = join(dataDir, "go");
  const script = `while [ ! -e ${go} ]; do sleep 0.05; done; seq 1 ${BACKLOG}`;
  await machine.edit({ components: sensors(1), processes: [{ id: "backlog", name: "/bin/sh", args: ["-c", script], one_shot: true, log: true }] });
  server = await machine.start();
  const owner = await signedInClient(CloudService, cloud.url, init.api_key);
  const volume = async () => {
    const answer = await owner.getLogVolume({ partId: machine.partId, start: timestampFromMs(Date.now() - 86_400_000), end: timestampFromMs(Date.now() + 3_600_000), buckets: 1 });
    return answer.buckets[0]!.counts.reduce((sum, n) => sum + n, 0);
  };
  const backlogServer = server;
  const logged = (message: string) => () => logLines(backlogServer.stdout()).some((l) => l.msg === message);
  await waitFor(logged('process "backlog" started'), "the process to start");
  await cloud.stop();
  writeFileSync(go, "");
  await waitFor(logged(String(BACKLOG)), "the backlog to be logged");
  cloud = await startSameCloud();
  const returned = performance.now();
  const before = await volume();
  let first = 0;
  for (;;) {
    const now = await volume();
    if (first === 0 && now > before) first = performance.now();
    if (now >= before + BACKLOG) break;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  const drained = performance.now();
  report(`${BACKLOG.toLocaleString("en")}-entry log backlog, svc-cloud's return to all uploaded`, drained - returned, "ms");
  report(`${BACKLOG.toLocaleString("en")}-entry log backlog, first entry to last uploaded`, drained - first, "ms");
  report("log upload throughput, one machine", (BACKLOG * 1000) / (drained - first), "entries/s");
  await server.stop();
} finally {
  await server?.stop();
  await cloud.stop();
  machine.remove();
  rmSync(dataDir, { recursive: true, force: true });
}
