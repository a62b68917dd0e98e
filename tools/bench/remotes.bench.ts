// A call to a remote part's resource through the main part, side by side with the same call
// made to the remote directly: two real svc-server processes on loopback (dist/linux/
// svc-server.mjs), the main one joining the other as a remote, and GetReadings on the remote's
// fake sensor, by its name on each side, under the same load in interleaved rounds
// (side-by-side.ts). Through the main part the call passes as bytes (the main part's auth,
// session and operation around it), as gRPC-web on kept-alive HTTP/1.1 connections to the
// remote (passed-calls.ts); its calls/s against the direct ones is the figure. BENCH_CALLS (8,000 calls each) changes the work; the whole takes
// about twenty seconds.
import { create, toBinary } from "@bufbuild/protobuf";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { GetReadingsRequestSchema } from "../../proto/gen/common/v1/common_pb.js";
import { distLinux } from "../../test/helpers/run-cli.js";
import { startSvcServer, type SvcServerProcess } from "../../test/helpers/svc-server-process.js";
import { grpcFrame, http2Caller } from "./grpc-load.js";
import { compareSideBySide } from "./side-by-side.js";

const calls = Number(process.env.BENCH_CALLS ?? 8_000);
const callers = 32;
const readingsPath = "/viam.component.sensor.v1.SensorService/GetReadings";
const readings = { celsius: 21.5, humidity: 0.41 };

/** Until the main part answers GetReadings for the remote's sensor (it has joined it). */
async function joined(main: SvcServerProcess, name: string): Promise<void> {
  const caller = http2Caller(Number(new URL(main.url).port), readingsPath, frame(name));
  try {
    for (let i = 0; i < 200; i++) {
      if (await caller.call().then(() => true, () => false)) return;
      await sleep(100);
    }
    throw new Error(`the main part never answered for the remote's sensor; its log:\n${main.stdout().slice(-2_000)}`);
  } finally {
    caller.close();
  }
}

const frame = (name: string) => grpcFrame(toBinary(GetReadingsRequestSchema, create(GetReadingsRequestSchema, { name })));

async function drive(): Promise<void> {
  if (!existsSync(join(distLinux, "svc-server.mjs"))) throw new Error("dist/linux/svc-server.mjs is missing: run node tools/build/index.mjs first");
  const remote = await startSvcServer({ components: [{ name: "temp", api: "rdk:component:sensor", model: "fake", attributes: { readings } }] });
  let main: SvcServerProcess | undefined;
  try {
    const remotePort = Number(new URL(remote.url).port);
    main = await startSvcServer({ remotes: [{ name: "pi", address: `localhost:${remotePort}`, insecure: true }] });
    await joined(main, "temp");
    const name = `remotes: ${callers} streams,`;
    await compareSideBySide({
      name,
      method: "GetReadings",
      subject: { label: "through the main part", caller: http2Caller(Number(new URL(main.url).port), readingsPath, frame("temp")), pid: main.child.pid! },
      baseline: { label: "direct to the remote", caller: http2Caller(remotePort, readingsPath, frame("temp")), pid: remote.child.pid! },
      ratioLabel: "through the main part / direct",
      ratioGoal: ">= 0.6",
      callers,
      calls,
      rounds: 6,
      warmUpCalls: 1_000,
    });
  } finally {
    await main?.stop();
    await remote.stop();
  }
}

await drive();
