// Simulated machines of a svc-cloud fleet, in the bench's own process: each on its own HTTP/2
// connection, signed in with its own part key, waiting on WatchRevisions as svc-server does, and
// fetching and decoding its whole new Config when told. Their client is lean (grpc-session.ts) so
// that thousands of them on one core cost less than the servers they measure. A fleet times an
// edit from its start until every machine holds the Config it made.
import { ConfigRequestSchema, ConfigResponseSchema } from "../../proto/gen/app/v1/robot_pb.js";
import { AuthenticateRequestSchema, AuthenticateResponseSchema } from "../../proto/gen/proto/rpc/v1/auth_pb.js";
import { RevisionNoticeSchema, WatchRevisionsRequestSchema } from "../../proto/gen/svc/cloud/v1/cloud_pb.js";
import type { FleetPart } from "./fleet-seed.js";
import { connectGrpcSession } from "./grpc-session.js";

/** Machines connected at once; the next ones start when these hold their first Config. */
const CONNECTING_AT_ONCE = 50;
/** How long an edit may take to reach every machine before the bench gives up. */
const EDIT_DEADLINE_MS = 60_000;

interface SimulatedMachine {
  /** Resolves once the machine holds its first Config. */
  ready: Promise<void>;
  close(): void;
}

/** One machine: its connection and token, its watch, and the whole new Config fetched when told. */
function simulatedMachine(url: string, part: FleetPart, fetched: () => void): SimulatedMachine {
  const grpc = connectGrpcSession(url);
  const fetchConfig = () => grpc.unary("/viam.app.v1.RobotService/Config", ConfigRequestSchema, { id: part.partId }, ConfigResponseSchema);
  const ready = (async () => {
    const { accessToken } = await grpc.unary("/proto.rpc.v1.AuthService/Authenticate", AuthenticateRequestSchema, { entity: part.key.id, credentials: { type: "api-key", payload: part.key.key } }, AuthenticateResponseSchema);
    grpc.setHeader("authorization", `Bearer ${accessToken}`);
    await new Promise<void>((resolve, reject) => {
      let known = -1;
      // Notices are handled one at a time: a newer one while a fetch runs is fetched after it.
      let fetching = Promise.resolve();
      grpc
        .serverStream("/svc.cloud.v1.CloudService/WatchRevisions", WatchRevisionsRequestSchema, { partId: part.partId }, RevisionNoticeSchema, (notice) => {
          const revision = Number(notice.revision);
          fetching = fetching.then(async () => {
            if (revision <= known) return;
            const first = known === -1;
            await fetchConfig();
            known = revision;
            if (first) resolve();
            else fetched();
          }, reject);
        })
        .catch(reject);
    });
  })();
  return { ready, close: () => grpc.close() };
}

/** The value at percentile `p` (0-100) of ascending `sorted`. */
export function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

export interface EditTimes {
  /** From the edit's start to each machine holding its new Config, ms, ascending. */
  latencies: number[];
  /** How long the edit call itself took, ms. */
  callMs: number;
}

export interface SimulatedFleet {
  /** Connects a machine for each part to the URL `urlOf` gives its index; resolves when every one holds its first Config. */
  connect(parts: readonly FleetPart[], urlOf: (index: number) => string): Promise<void>;
  /** Runs `edit` and waits until every machine has fetched a newer Config; `what` names the edit in a failure. */
  timeEdit(what: string, edit: () => Promise<unknown>): Promise<EditTimes>;
  close(): void;
}

export function createSimulatedFleet(): SimulatedFleet {
  const machines: SimulatedMachine[] = [];
  let arrivals: number[] = [];
  let allArrived = () => {};
  const fetched = () => {
    arrivals.push(performance.now());
    if (arrivals.length >= machines.length) allArrived();
  };
  return {
    async connect(parts, urlOf) {
      for (let i = 0; i < parts.length; i += CONNECTING_AT_ONCE) {
        const batch = parts.slice(i, i + CONNECTING_AT_ONCE).map((part, j) => simulatedMachine(urlOf(i + j), part, fetched));
        machines.push(...batch);
        await Promise.all(batch.map((m) => m.ready));
      }
    },
    async timeEdit(what, edit) {
      arrivals = [];
      let timer: ReturnType<typeof setTimeout> | undefined;
      const done = new Promise<void>((resolve) => {
        allArrived = resolve;
        timer = setTimeout(resolve, EDIT_DEADLINE_MS);
      });
      const start = performance.now();
      let callMs: number;
      try {
        await edit();
        callMs = performance.now() - start;
        await done;
      } finally {
        clearTimeout(timer);
      }
      if (arrivals.length < machines.length) throw new Error(`${what}: only ${arrivals.length} of ${machines.length} machines fetched the new config within a minute`);
      return { latencies: arrivals.map((t) => t - start).sort((a, b) => a - b), callMs };
    },
    close() {
      for (const m of machines) m.close();
    },
  };
}
