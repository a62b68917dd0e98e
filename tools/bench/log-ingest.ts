// Machines sending logs to svc-cloud as fast as it takes them: RobotService.Log with a part key's
// token, 1,000 entries a call (the most a call may carry), a fixed number of calls always in
// flight for a while. Each target (a part on a replica) has its own HTTP/2 connection and its
// request encoded once, so the bench's own cost per call is a frame written and a status read,
// and what is measured is the servers'.
import { create, toBinary } from "@bufbuild/protobuf";
import { timestampFromMs } from "@bufbuild/protobuf/wkt";
import http2 from "node:http2";
import { LogRequestSchema } from "../../proto/gen/app/v1/robot_pb.js";
import { grpcFrame } from "./grpc-load.js";

/** Entries in one Log call. */
export const ENTRIES_PER_CALL = 1000;
const LOG_PATH = "/viam.app.v1.RobotService/Log";

/** Where calls go: a replica's address, a token of the part's key, and the part. */
export interface IngestTarget {
  url: string;
  token: string;
  partId: string;
}

/** One Log call's frame for `partId`: a machine's resource manager reporting on its sensors, one entry in ten an error. */
function logFrame(partId: string, time: number): Buffer {
  const request = create(LogRequestSchema, {
    id: partId,
    logs: Array.from({ length: ENTRIES_PER_CALL }, (_, i) => ({
      host: "bench",
      level: i % 10 === 0 ? "error" : "info",
      time: timestampFromMs(time),
      loggerName: "rdk.resource_manager",
      message: `reading sensor-${i} took ${i % 97} ms`,
      caller: { File: "resource_manager.go", Line: 412, Defined: true },
      stack: "",
      fields: [{ resource: `sensor-${i}` }],
    })),
  });
  return grpcFrame(toBinary(LogRequestSchema, request));
}

interface LogCaller {
  call(): Promise<void>;
  close(): void;
}

function logCaller(target: IngestTarget, frame: Buffer): LogCaller {
  const session = http2.connect(target.url);
  session.on("error", () => {});
  const headers = { ":method": "POST", ":path": LOG_PATH, "content-type": "application/grpc+proto", te: "trailers", authorization: `Bearer ${target.token}` };
  return {
    call: () =>
      new Promise((resolve, reject) => {
        const stream = session.request(headers);
        stream.on("trailers", (t) => (t["grpc-status"] === "0" ? resolve() : reject(new Error(`Log: grpc-status ${t["grpc-status"]}: ${t["grpc-message"]}`))));
        stream.on("close", () => reject(new Error("Log: the stream closed without a status")));
        stream.on("error", reject);
        stream.resume();
        stream.end(frame);
      }),
    close: () => session.destroy(),
  };
}

/**
 * Keeps `inFlight` Log calls going for `ms`, call lane k always to target k modulo the targets;
 * answers how many entries were stored and in how many seconds.
 */
export async function ingestLogs(targets: readonly IngestTarget[], inFlight: number, ms: number): Promise<{ entries: number; seconds: number }> {
  const now = Date.now();
  const callers = targets.map((target) => logCaller(target, logFrame(target.partId, now)));
  try {
    let entries = 0;
    const start = performance.now();
    const until = start + ms;
    await Promise.all(
      Array.from({ length: inFlight }, async (_, lane) => {
        const caller = callers[lane % callers.length]!;
        while (performance.now() < until) {
          await caller.call();
          entries += ENTRIES_PER_CALL;
        }
      }),
    );
    return { entries, seconds: (performance.now() - start) / 1000 };
  } finally {
    for (const caller of callers) caller.close();
  }
}
