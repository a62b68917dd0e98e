// The MCU target measured on the host: the minified size of its bundle (dist/mcu/svc-mcu.mjs);
// the XS memory after booting a 20-resource configuration; the XS compute meter for that boot and
// for one GetReadings; and GetReadings calls per second over gRPC-web through the shim, side by
// side with svc-server in the same run.
//
// The memory goal (heap and chunks under 256 KB on a 32-bit device with 20 resources) is judged
// on what booting keeps beyond the loaded bundle: on a device the bundle is preloaded into flash,
// so its own objects take no RAM until written. Slots are XS's count of live slots
// (`currentHeapCount`, read after `gc()`) times 16 bytes, a slot's size on the 32-bit
// microcontrollers (ESP32, RP2040) the goal is about (32 bytes on this 64-bit host). Chunks are
// the "BLOC" section of an XS snapshot (XsWorker.liveChunkBytes): strings, array storage, Map and
// Set tables, ArrayBuffers, and the code every closure made at run time copies (a device copies
// it too: only functions made while the bundle is preloaded keep their code in flash). They are
// counted in the host's bytes, an upper bound for a device, whose array storage and tables are
// half the size. These are live figures; XS holds some more than that (the peak of a
// reconfiguration, and its growth increments), which test/firmware/memory-host.test.ts measures
// on the instrumented host build. Boards here are simulated (hal/sim), which a device does not
// carry. The shim runs in its own process (this file started with "shim"), so the load generator
// never shares its event loop. BENCH_CALLS (4,000 per contender) changes the load.
import { create, toBinary } from "@bufbuild/protobuf";
import { statSync } from "node:fs";
import { join } from "node:path";
import { GetReadingsRequestSchema } from "../../proto/gen/common/v1/common_pb.js";
import { encodeCommand, decodeReply, COMMAND_CONFIG, COMMAND_REQUEST } from "../../targets/mcu/host-protocol.js";
import { startSvcServer } from "../../test/helpers/svc-server-process.js";
import { buildTargetBundle } from "../mcu-shim/build-bundle.mjs";
import { startMcuShim } from "../mcu-shim/mcu-shim.js";
import { moduleAsScript, XsWorker } from "../xs/xs-worker.js";
import { startChildServer, stopChildServer } from "./child-server.js";
import { grpcFrame, grpcWebCaller, runLoad, type Caller, type Run } from "./grpc-load.js";
import { report } from "./report.js";
import { medianOf } from "./side-by-side.js";

const SLOT_BYTES_ON_MCU = 16;
const readingsPath = "/viam.component.sensor.v1.SensorService/GetReadings";
const calls = Number(process.env.BENCH_CALLS ?? 4_000);
const callers = 8;

/**
 * 20 resources as a microcontroller would run them: its one board, sensors, motors with their
 * encoders, a servo, a movement sensor and a generic component.
 */
function twentyResources() {
  const c = (name: string, subtype: string, attributes: Record<string, unknown> = {}) => ({ name, api: `rdk:component:${subtype}`, model: "fake", attributes });
  const components = [
    c("board", "board", { analogs: [{ name: "light", pin: "30" }] }),
    ...Array.from({ length: 9 }, (_, i) => c(`sensor-${i}`, "sensor", { readings: { celsius: 20 + i, humidity: 0.4 } })),
    ...Array.from({ length: 3 }, (_, i) => c(`encoder-${i}`, "encoder")),
    ...Array.from({ length: 3 }, (_, i) => c(`motor-${i}`, "motor", { max_rpm: 60, encoder: `encoder-${i}` })),
    c("arm", "servo"),
    c("imu", "movement_sensor"),
    c("thing", "generic"),
    c("gate", "sensor", { readings: { allowed: true } }),
  ];
  return { components };
}

const readingsFrame = grpcFrame(toBinary(GetReadingsRequestSchema, create(GetReadingsRequestSchema, { name: "sensor-0" })));

async function sizeAndMeters(): Promise<void> {
  const code = await buildTargetBundle({ write: true });
  report("mcu target bundle dist/mcu/svc-mcu.mjs (minified)", statSync(join(import.meta.dirname, "../../dist/mcu/svc-mcu.mjs")).size / 1024, "KB", "< 256 KB");

  const worker = new XsWorker();
  try {
    const slots = async () => (await worker.evaluate("gc()")).meters.currentHeapCount;
    const empty = await slots();
    const loadMeters = (await worker.evaluate(moduleAsScript(code, "svcMcu"))).meters;
    await worker.evaluate("globalThis.svcMcu.installXsnapHost({});");
    const loaded = await slots();
    const loadedChunks = await worker.liveChunkBytes();

    const config = JSON.stringify(twentyResources());
    const boot = await worker.commandBytes(encodeCommand({ kind: COMMAND_CONFIG, now: Date.now(), id: 1, text: config }));
    const booted = decodeReply(boot.reply);
    const outcome = JSON.parse(Buffer.from(booted.finished[0]?.body ?? []).toString() || "{}") as { outcome?: string; added?: string[] };
    if (outcome.outcome !== "applied" || outcome.added?.length !== 20) throw new Error(`boot did not apply 20 resources: ${JSON.stringify(outcome)}`);
    const afterBoot = await slots();
    const bootChunks = (await worker.liveChunkBytes()) - loadedChunks;
    const kb = (n: number) => (n * SLOT_BYTES_ON_MCU) / 1024;
    // On a device the bundle is preloaded into flash (targets/mcu/manifest.json): its own
    // objects stay out of RAM, so the machine's RAM is what booting adds.
    report("mcu RAM kept after booting 20 resources, beyond the loaded bundle (16-byte slots + host chunk bytes)", kb(afterBoot - loaded) + bootChunks / 1024, "KB", "< 256 KB");
    report("mcu XS heap after booting 20 resources, beyond the loaded bundle (16-byte slots)", kb(afterBoot - loaded), "KB");
    report("mcu XS chunks after booting 20 resources, beyond the loaded bundle (host bytes)", bootChunks / 1024, "KB");
    report("mcu XS heap after booting 20 resources, bundle included, beyond an empty XS (16-byte slots)", kb(afterBoot - empty), "KB");
    report("mcu XS heap slots of the loaded bundle's own objects", loaded - empty, "slots");
    report("mcu XS heap slots the 20-resource boot adds", afterBoot - loaded, "slots");
    report("mcu XS compute, loading the bundle", loadMeters.compute, "steps");
    report("mcu XS compute, booting 20 resources (parse, validate, graph, models)", boot.meters.compute, "steps");

    let id = 2;
    const getReadings = async () => {
      const answer = await worker.commandBytes(
        encodeCommand({ kind: COMMAND_REQUEST, now: Date.now(), id: id++, method: "POST", path: readingsPath, headers: [["content-type", "application/grpc-web+proto"]], body: readingsFrame }),
      );
      const body = Buffer.from(decodeReply(answer.reply).finished[0]?.body ?? []);
      if (!body.includes("grpc-status: 0")) throw new Error(`GetReadings failed in XS: ${body.toString("latin1")}`);
      return answer.meters.compute;
    };
    const first = await getReadings();
    const steady: number[] = [];
    for (let i = 0; i < 20; i++) steady.push(await getReadings());
    report("mcu XS compute, one GetReadings (decode, operation, handler, encode, framing)", medianOf(steady), "steps");
    report("mcu XS compute, the first GetReadings (tables parsed on first use)", first, "steps");
    report("mcu XS heap after 21 GetReadings, beyond an empty XS (16-byte slots)", kb((await slots()) - empty), "KB");
  } finally {
    await worker.close();
  }
}

// ---- the shim in a child process ----

async function serveShim(): Promise<void> {
  const shim = await startMcuShim({ config: twentyResources() });
  process.stdout.write(`${JSON.stringify({ h2: 0, web: shim.port, worker: shim.workerPid })}\n`);
  process.stdin.resume();
  process.stdin.on("end", () => {
    setTimeout(() => process.exit(0), 2_000).unref();
    void shim.close().then(() => process.exit(0));
  });
}

async function callsPerSecond(): Promise<void> {
  const svc = await startSvcServer(twentyResources());
  const shim = await startChildServer(["shim"]);
  const workerPid = (shim.ports as unknown as { worker: number }).worker;
  try {
    const contenders: Array<{ label: string; caller: Caller; pid: number; runs: Run[] }> = [
      { label: "svc-mcu (XS through the shim)", caller: grpcWebCaller(shim.ports.web, readingsPath, readingsFrame, callers), pid: workerPid, runs: [] },
      { label: "svc-server (Node)", caller: grpcWebCaller(Number(new URL(svc.url).port), readingsPath, readingsFrame, callers), pid: svc.child.pid!, runs: [] },
    ];
    const rounds = 4;
    for (const c of contenders) await runLoad(c.caller, 500, callers, c.pid);
    for (let round = 0; round < rounds; round++) {
      for (const c of round % 2 ? [...contenders].reverse() : contenders) c.runs.push(await runLoad(c.caller, Math.ceil(calls / rounds), callers, c.pid));
    }
    for (const c of contenders) c.caller.close();
    const rate = (c: (typeof contenders)[number]) => medianOf(c.runs.map((r) => r.perSecond));
    for (const c of contenders) report(`mcu GetReadings over gRPC-web, ${callers} connections, ${c.label}`, rate(c), "calls/s");
    report("mcu GetReadings calls/s, svc-mcu / svc-server", rate(contenders[0]!) / rate(contenders[1]!), "x");
    for (const c of contenders) report(`mcu GetReadings latency p50, ${c.label}`, medianOf(c.runs.map((r) => r.p50)), "ms");
    report("mcu XS worker CPU per GetReadings", medianOf(contenders[0]!.runs.map((r) => r.cpuPerCall)), "µs");
  } finally {
    await stopChildServer(shim.process);
    await svc.stop();
  }
}

if (process.argv[2] === "shim") {
  await serveShim();
} else {
  await sizeAndMeters();
  await callsPerSecond();
}
