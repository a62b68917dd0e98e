// GetReadings through svc's API port against a bare connect-node server, side by side: the same
// handler served by createApiServer (one port, preface sniffing, CORS, routes, connection
// tracking) and by `http2.createServer` / `http.createServer` around connectNodeAdapter. Each
// server runs in its own child process (this file, started with "serve"); this process is the
// load generator. 32 callers share one HTTP/2 session for gRPC, and a keep-alive agent of 32
// sockets for gRPC-web. BENCH_CALLS (20,000) and BENCH_CALLERS (32) change the load.
import { create, fromJson, toBinary } from "@bufbuild/protobuf";
import { ValueSchema } from "@bufbuild/protobuf/wkt";
import { createClient, type ConnectRouter, type Transport } from "@connectrpc/connect";
import { createGrpcTransport, createGrpcWebTransport } from "@connectrpc/connect-node";
import { GetReadingsRequestSchema } from "../../proto/gen/common/v1/common_pb.js";
import { SensorService } from "../../proto/gen/component/sensor/v1/sensor_pb.js";
import { createApiServer } from "../../targets/linux/server/transport/index.js";
import { listenBareConnect } from "./bare-connect-server.js";
import { serveUntilStdinEnds, startChildServer, stopChildServer, type ChildServer, type Ports } from "./child-server.js";
import { grpcFrame, grpcWebCaller, http2Caller, type Caller } from "./grpc-load.js";
import { compareSideBySide } from "./side-by-side.js";

const callers = Number(process.env.BENCH_CALLERS ?? 32);
const calls = Number(process.env.BENCH_CALLS ?? 20_000);

type Kind = "svc" | "bare";

function routes(router: ConnectRouter): void {
  const readings = { celsius: fromJson(ValueSchema, 21.5), humidity: fromJson(ValueSchema, 0.41) };
  router.service(SensorService, {
    getReadings(req) {
      return { readings: req.name === "temp" ? readings : {} };
    },
  });
}

// ---- the servers (child processes) ----

async function serve(kind: Kind): Promise<void> {
  if (kind === "svc") {
    const server = await createApiServer({ bindAddress: "127.0.0.1:0", routes });
    serveUntilStdinEnds({ h2: server.port, web: server.port }, () => server.close());
  } else {
    const server = await listenBareConnect(routes);
    serveUntilStdinEnds(server.ports, () => server.stop());
  }
}

// ---- the load generator ----

const path = "/viam.component.sensor.v1.SensorService/GetReadings";
const requestFrame = grpcFrame(toBinary(GetReadingsRequestSchema, create(GetReadingsRequestSchema, { name: "temp" })));

// connect's own client makes one call to each server first, to be sure both answer what a real
// client decodes; the measured calls only check their status.
async function checkWithConnect(transport: Transport): Promise<void> {
  const response = await createClient(SensorService, transport).getReadings({ name: "temp" });
  if (response.readings.celsius?.kind.value !== 21.5) throw new Error("the server answered other readings");
}

async function measure(name: string, svc: ChildServer, bare: ChildServer, open: (ports: Ports) => Caller): Promise<void> {
  await compareSideBySide({
    name,
    method: "GetReadings",
    subject: { label: "svc API port", caller: open(svc.ports), pid: svc.process.pid! },
    baseline: { label: "bare connect-node", caller: open(bare.ports), pid: bare.process.pid! },
    ratioLabel: "svc / bare",
    ratioGoal: ">= 0.8",
    callers,
    calls,
    rounds: 6,
    warmUpCalls: 2_000,
  });
}

async function drive(): Promise<void> {
  const [svc, bare] = await Promise.all([startChildServer(["serve", "svc"]), startChildServer(["serve", "bare"])]);
  try {
    for (const { ports } of [svc, bare]) {
      await checkWithConnect(createGrpcTransport({ baseUrl: `http://127.0.0.1:${ports.h2}` }));
      await checkWithConnect(createGrpcWebTransport({ baseUrl: `http://127.0.0.1:${ports.web}`, httpVersion: "1.1" }));
    }
    await measure(`transport gRPC HTTP/2, ${callers} streams,`, svc, bare, (ports) => http2Caller(ports.h2, path, requestFrame));
    await measure(`transport gRPC-web HTTP/1.1, ${callers} connections,`, svc, bare, (ports) =>
      grpcWebCaller(ports.web, path, requestFrame, callers),
    );
  } finally {
    await Promise.all([stopChildServer(svc.process), stopChildServer(bare.process)]);
  }
}

if (process.argv[2] === "serve") await serve(process.argv[3] === "svc" ? "svc" : "bare");
else await drive();
