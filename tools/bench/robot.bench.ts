// What making every call an operation costs: beginning and finishing one in the core, with and
// without a session heartbeat, listing a thousand in flight, and GetVersion calls per second over
// HTTP/2 through the API port with and without the call interceptor (32 callers, one process).
import { createClient } from "@connectrpc/connect";
import { createGrpcTransport } from "@connectrpc/connect-node";
import { randomUUID } from "node:crypto";
import { createCallRunner, createGraphEngine, createModelRegistry, createOperations, createSessions } from "../../core/index.js";
import { RobotService } from "../../proto/gen/robot/v1/robot_pb.js";
import { createNodeClock } from "../../targets/linux/logging/index.js";
import { createRobotApi } from "../../targets/linux/server/robot/index.js";
import { createApiServer } from "../../targets/linux/server/transport/index.js";
import { nsPerCall, report } from "./report.js";

const clock = createNodeClock();
const operations = createOperations({ clock, newId: randomUUID });
const sessions = createSessions({ clock, newId: randomUUID, heartbeatWindowMs: 60_000 });
const runner = createCallRunner({ operations, sessions });
const session = sessions.start().id;
const request = { name: "m1", rpm: 60, revolutions: 3 };

report(
  "operation begin+finish",
  nsPerCall(() => operations.begin({ method: "/viam.component.motor.v1.MotorService/GoFor", args: () => request }).finish()),
  "ns/call",
  "< 1000",
);
report(
  "call under a session (heartbeat + operation)",
  nsPerCall(() => runner.begin({ method: "/viam.component.motor.v1.MotorService/GoFor", sessionId: session, args: () => request }).finish()),
  "ns/call",
  "< 2000",
);

const inFlight = Array.from({ length: 1000 }, (_, i) => operations.begin({ method: "/viam.component.motor.v1.MotorService/GoFor", args: () => ({ ...request, name: `m${i}` }) }));
operations.list();
report("GetOperations listing 1,000 calls in flight", nsPerCall(() => operations.list(), 500) / 1e6, "ms/call", "< 5");
for (const op of inFlight) op.finish();
sessions.close();

async function callsPerSecond(withInterceptor: boolean): Promise<number> {
  const engine = createGraphEngine({ registry: createModelRegistry(), clock });
  const api = createRobotApi({ engine, clock, version: "bench", cloud: () => undefined, requestShutdown: () => {} });
  const server = await createApiServer({
    bindAddress: "127.0.0.1:0",
    interceptors: withInterceptor ? [api.interceptor] : [],
    routes: api.routes,
  });
  const client = createClient(RobotService, createGrpcTransport({ baseUrl: server.url }));
  const run = async (total: number) => {
    let left = total;
    await Promise.all(
      Array.from({ length: 32 }, async () => {
        while (left-- > 0) await client.getVersion({});
      }),
    );
  };
  await run(2_000);
  const calls = 20_000;
  const start = performance.now();
  await run(calls);
  const rate = (calls * 1000) / (performance.now() - start);
  await server.close();
  api.close();
  await engine.close();
  return rate;
}

// Alternating rounds, best of each, so warm-up and the other tenants of the machine weigh on both alike.
let bare = 0;
let tracked = 0;
for (let round = 0; round < 3; round++) {
  bare = Math.max(bare, await callsPerSecond(false));
  tracked = Math.max(tracked, await callsPerSecond(true));
}
report("GetVersion over HTTP/2, no interceptor", bare, "calls/s");
report("GetVersion over HTTP/2, every call an operation", tracked, "calls/s");
report("calls/s with operations / without", tracked / bare, "ratio", ">= 0.9");
