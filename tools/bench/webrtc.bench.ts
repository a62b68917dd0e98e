// WebRTC on the real svc-server: server CPU per GetReadings call over a WebRTC data channel
// against the same call over gRPC/HTTP/2, side by side in interleaved rounds under the same load,
// paced (the goal: both at one call rate) and at full speed (32 calls in flight); and the time
// from dialling with the official SDK (signaling through the machine itself, node-datachannel's
// RTCPeerConnection) to its first answer, on loopback. BENCH_ROUNDS (3), BENCH_WINDOW_MS (2,500
// per window), BENCH_WEBRTC_PACE (1,000 calls/s: WebRTC's full speed is about twice that here)
// and BENCH_DIALS (10) change the work.
import { create, toBinary } from "@bufbuild/protobuf";
import * as VIAM from "@viamrobotics/sdk";
import { RTCIceCandidate, RTCPeerConnection, RTCSessionDescription } from "node-datachannel/polyfill";
import { GetReadingsRequestSchema } from "../../proto/gen/common/v1/common_pb.js";
import { startSvcServer, type SvcServerProcess } from "../../test/helpers/svc-server-process.js";
import { grpcFrame, http2Caller } from "./grpc-load.js";
import { report } from "./report.js";
import { runRounds, type Contender } from "./rounds.js";
import { medianOf } from "./side-by-side.js";
import { printUnary, type UnaryMeasure } from "./unary-report.js";
import { webRtcCaller } from "./webrtc-caller.js";

const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
const windowMs = Number(process.env.BENCH_WINDOW_MS ?? 2_500);
const pace = Number(process.env.BENCH_WEBRTC_PACE ?? 1_000);
const dials = Number(process.env.BENCH_DIALS ?? 10);
const readingsPath = "/viam.component.sensor.v1.SensorService/GetReadings";
const config = { network: { bind_address: "127.0.0.1:0" }, components: [{ name: "temp", api: "rdk:component:sensor", model: "fake" }] };

async function cpuPerCall(svc: SvcServerProcess): Promise<void> {
  const pid = svc.child.pid!;
  const message = toBinary(GetReadingsRequestSchema, create(GetReadingsRequestSchema, { name: "temp" }));
  const port = Number(new URL(svc.url).port);
  // One WebRTC connection for every window (opening one is the dial figure's business).
  const connection = await webRtcCaller(svc.url, readingsPath, message);
  const contenders: Contender[] = [
    { label: "WebRTC", pid, open: () => ({ call: () => connection.call(), close() {} }) },
    { label: "gRPC HTTP/2", pid, open: () => http2Caller(port, readingsPath, grpcFrame(message)) },
  ];
  // The goal is CPU per call at one call rate for both. At full speed each runs at its own rate,
  // and HTTP/2 writes many calls' frames in one system call where every WebRTC message is its own
  // encrypted packet: that ratio is printed for what it says about a saturated machine.
  const measures: UnaryMeasure[] = [
    { name: "webrtc: GetReadings, full speed 32 in flight", contenders, callers: 32, ratios: [["WebRTC", "gRPC HTTP/2"]] },
    { name: `webrtc: GetReadings, paced ${pace.toLocaleString("en")} calls/s`, contenders, callers: 32, perSecond: pace, ratios: [["WebRTC", "gRPC HTTP/2", "<= 2"]] },
  ];
  try {
    printUnary(await runRounds(measures, { rounds, windowMs, warmUpMs: 1_000 }), measures);
  } finally {
    connection.close();
  }
}

async function timeToConnect(svc: SvcServerProcess): Promise<void> {
  Object.assign(globalThis, { RTCPeerConnection, RTCSessionDescription, RTCIceCandidate });
  const quiet = () => {};
  // The SDK narrates every dial; the figures are printed with console.log.
  for (const level of ["debug", "info", "groupCollapsed", "table", "groupEnd"] as const) console[level] = quiet;
  const times: number[] = [];
  for (let i = 0; i < dials; i++) {
    const began = performance.now();
    const robot = new VIAM.RobotClient();
    await robot.dial({ host: new URL(svc.url).host, signalingAddress: svc.url, noReconnect: true, iceServers: [] } as never);
    await new VIAM.SensorClient(robot, "temp").getReadings();
    times.push(performance.now() - began);
    await robot.disconnect();
  }
  report(`webrtc: SDK dial to first answer on loopback, median of ${dials}`, medianOf(times), "ms", "< 300 ms");
}

const svc = await startSvcServer(config);
try {
  await cpuPerCall(svc);
  await timeToConnect(svc);
} finally {
  await svc.stop();
}
