// Modular resources on the real svc-server (dist/linux/svc-server.mjs) with the example counter
// module (dist/modules/counter.mjs), a sensor of model acme:demo:counter. The module is added to
// the running server's configuration several times, and removed in between: from the server
// starting the module (its "started" log line) to the counter sensor READY (the time the server
// recorded, read through GetMachineStatus); then, each time, the module process is killed with
// SIGKILL, and timed until the sensor is READY again. A module just added has a fresh restart
// backoff, so every kill is a first failure (the log line says consecutive_failures 1). Last,
// GetReadings through the modular sensor and through a built-in fake sensor of the same server,
// side by side under the same load (the module's own CPU per call is printed too: the server's
// figure leaves it out). BENCH_MODULE_RUNS (5 additions) and BENCH_CALLS (8,000 calls per sensor)
// change the work; the whole takes about half a minute.
import { create, toBinary } from "@bufbuild/protobuf";
import { createClient } from "@connectrpc/connect";
import { createGrpcTransport } from "@connectrpc/connect-node";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { GetReadingsRequestSchema } from "../../proto/gen/common/v1/common_pb.js";
import { SensorService } from "../../proto/gen/component/sensor/v1/sensor_pb.js";
import { exampleCounter } from "../../test/helpers/module-fixtures.js";
import { distLinux } from "../../test/helpers/run-cli.js";
import { startSvcServer, type SvcServerProcess } from "../../test/helpers/svc-server-process.js";
import { cpuSeconds, grpcFrame, http2Caller } from "./grpc-load.js";
import { report } from "./report.js";
import { watchServer, type ServerWatch } from "./server-watch.js";
import { compareSideBySide, medianOf } from "./side-by-side.js";

const runs = Number(process.env.BENCH_MODULE_RUNS ?? 5);
const calls = Number(process.env.BENCH_CALLS ?? 8_000);
const callers = 32;
const counterSensor = "counter1";
const fakeSensor = "fake1";
const counterKey = `rdk:component:sensor/${counterSensor}`;
const readingsPath = "/viam.component.sensor.v1.SensorService/GetReadings";
// Between READY and the kill, so the READY seen after the kill can only be the restarted one's.
const settleMs = 300;

const fake = { name: fakeSensor, api: "rdk:component:sensor", model: "fake" };
const withoutModule = { components: [fake] };
// Each addition names the module afresh: the server's log writes a message repeated from the same
// logger only three times in ten seconds, and the bench reads the module's lines from that log.
const withModule = (module: string) => ({
  modules: [{ type: "local", name: module, executable_path: exampleCounter }],
  components: [fake, { name: counterSensor, api: "rdk:component:sensor", model: "acme:demo:counter" }],
});
const moduleKey = (module: string) => `rdk:module:process/${module}`;
const started = (module: string) => `module ${JSON.stringify(module)} started`;
const killed = (module: string) => `module ${JSON.stringify(module)} failed: was killed by SIGKILL`;

/** Adds the module; returns its process id and how long from its start to the sensor READY. */
async function addModule(svc: SvcServerProcess, watch: ServerWatch, module: string): Promise<{ pid: number; startToReady: number }> {
  const mark = watch.logMark();
  const wroteAt = Date.now();
  svc.writeConfig(withModule(module));
  const readyAt = await watch.waitForReady(counterKey, wroteAt);
  const line = await watch.waitForLog(mark, started(module));
  return { pid: modulePid(line.fields.pid), startToReady: readyAt - line.at };
}

/** The module's process id from its "started" line, checked against what runs under that id. */
function modulePid(pid: unknown): number {
  if (typeof pid !== "number") throw new Error(`the "started" line has no pid (${JSON.stringify(pid)})`);
  const command = readFileSync(`/proc/${pid}/cmdline`, "utf8");
  if (!command.includes(exampleCounter)) throw new Error(`process ${pid} is not the counter module: ${command.replace(/\0/g, " ")}`);
  return pid;
}

/** SIGKILL to the module; returns how long until the sensor is READY again. */
async function killModule(watch: ServerWatch, module: string, pid: number): Promise<number> {
  const mark = watch.logMark();
  const killedAt = Date.now();
  process.kill(pid, "SIGKILL");
  const readyAt = await watch.waitForReady(counterKey, killedAt);
  const failure = await watch.waitForLog(mark, killed(module));
  if (failure.fields.consecutive_failures !== 1) {
    throw new Error(`the kill was not a first failure: consecutive_failures ${JSON.stringify(failure.fields.consecutive_failures)}`);
  }
  return readyAt - killedAt;
}

async function removeModule(svc: SvcServerProcess, watch: ServerWatch, module: string): Promise<void> {
  svc.writeConfig(withoutModule);
  await watch.waitForGone([counterKey, moduleKey(module)]);
}

async function readingsSideBySide(svc: SvcServerProcess, modulePid: number): Promise<void> {
  const pid = svc.child.pid!;
  const port = Number(new URL(svc.url).port);
  const sensors = createClient(SensorService, createGrpcTransport({ baseUrl: svc.url }));
  const counted = await sensors.getReadings({ name: counterSensor });
  if (typeof counted.readings.count?.kind.value !== "number") throw new Error(`the counter sensor answers without a count: ${JSON.stringify(counted.readings)}`);
  await sensors.getReadings({ name: fakeSensor });
  const moduleCpu = cpuSeconds(modulePid);
  const frame = (name: string) => grpcFrame(toBinary(GetReadingsRequestSchema, create(GetReadingsRequestSchema, { name })));
  const name = `modules: ${callers} streams,`;
  const { callsEach } = await compareSideBySide({
    name,
    method: "GetReadings",
    subject: { label: "modular counter", caller: http2Caller(port, readingsPath, frame(counterSensor)), pid },
    baseline: { label: "built-in fake", caller: http2Caller(port, readingsPath, frame(fakeSensor)), pid },
    ratioLabel: "modular / built-in",
    ratioGoal: ">= 0.5",
    callers,
    calls,
    rounds: 6,
    warmUpCalls: 1_000,
  });
  report(`${name} module CPU per call, modular counter`, ((cpuSeconds(modulePid) - moduleCpu) / callsEach) * 1e6, "µs");
}

/** Every module process the server started must be gone with it; one left behind is reported and ended. */
async function checkModulesGone(watch: ServerWatch): Promise<void> {
  await sleep(200);
  for (const line of watch.logSince(0)) {
    const pid = line.fields.pid;
    if (!/^module ".*" started$/.test(line.msg) || typeof pid !== "number" || !existsSync(`/proc/${pid}`)) continue;
    console.error(`modules bench: module process ${pid} outlived svc-server; killing it`);
    process.kill(pid, "SIGKILL");
    process.exitCode = 1;
  }
}

async function drive(): Promise<void> {
  if (!existsSync(join(distLinux, "svc-server.mjs")) || !existsSync(exampleCounter)) {
    throw new Error("dist/linux/svc-server.mjs or dist/modules/counter.mjs is missing: run node tools/build/index.mjs --only linux first");
  }
  const svc = await startSvcServer(withoutModule);
  const watch = watchServer(svc, createGrpcTransport({ baseUrl: svc.url }));
  try {
    await watch.waitForReady(`rdk:component:sensor/${fakeSensor}`, 0);
    const startToReady: number[] = [];
    const killToReady: number[] = [];
    for (let run = 1; run <= runs; run++) {
      const module = `counter-${run}`;
      const added = await addModule(svc, watch, module);
      startToReady.push(added.startToReady);
      await sleep(settleMs);
      killToReady.push(await killModule(watch, module, added.pid));
      await removeModule(svc, watch, module);
    }
    report(`modules: start to READY, example counter module, median of ${runs}`, medianOf(startToReady), "ms", "< 300 ms for the example module");
    report(`modules: SIGKILL to resources READY again, first failure, median of ${runs}`, medianOf(killToReady), "ms", "< 1 s at the first failure");
    const { pid } = await addModule(svc, watch, "counter");
    await readingsSideBySide(svc, pid);
  } finally {
    const code = await svc.stop();
    if (code !== 0) console.error(`svc-server exited with ${code} when stopped; stderr:\n${svc.stderr().slice(-2_000)}`);
    await checkModulesGone(watch);
  }
}

await drive();
