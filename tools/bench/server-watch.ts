// Watching a running svc-server from outside, for benchmarks that time what it does: its JSON log
// lines on stdout (with the server's own timestamps) and the state of one resource as
// GetMachineStatus reports it, with the time the server recorded the change.
import { timestampMs } from "@bufbuild/protobuf/wkt";
import { createClient, type Transport } from "@connectrpc/connect";
import { setTimeout as sleep } from "node:timers/promises";
import { ResourceStatus_State, RobotService } from "../../proto/gen/robot/v1/robot_pb.js";
import type { SvcServerProcess } from "../../test/helpers/svc-server-process.js";

export interface LogLine {
  /** The server's clock, in milliseconds since the epoch. */
  at: number;
  msg: string;
  fields: Record<string, unknown>;
}

/** A resource as `namespace:type:subtype/name` ("rdk:component:sensor/counter1"). */
export type ResourceKey = string;

export interface ServerWatch {
  /** Where the log seen so far ends: pass it to `waitForLog` to see only later lines. */
  logMark(): number;
  /** The lines after `mark`. */
  logSince(mark: number): LogLine[];
  /** The first line after `mark` whose message is `msg`. */
  waitForLog(mark: number, msg: string, timeoutMs?: number): Promise<LogLine>;
  /** Waits until `resource` is READY with a change recorded at or after `sinceMs` (server clock); returns that time. */
  waitForReady(resource: ResourceKey, sinceMs: number, timeoutMs?: number): Promise<number>;
  /** Waits until GetMachineStatus no longer lists any of `resources`. */
  waitForGone(resources: readonly ResourceKey[], timeoutMs?: number): Promise<void>;
}

export function watchServer(svc: SvcServerProcess, transport: Transport, pollMs = 10): ServerWatch {
  const robot = createClient(RobotService, transport);

  function linesAfter(mark: number): LogLine[] {
    const text = svc.stdout().slice(mark);
    const lines: LogLine[] = [];
    for (const line of text.split("\n")) {
      if (!line.startsWith("{")) continue;
      try {
        const { time, msg, ...fields } = JSON.parse(line) as Record<string, unknown>;
        lines.push({ at: Date.parse(String(time)), msg: String(msg), fields });
      } catch {
        // A line still being written.
      }
    }
    return lines;
  }

  async function statuses(): Promise<Map<ResourceKey, { ready: boolean; at: number }>> {
    const status = await robot.getMachineStatus({});
    return new Map(
      status.resources.map((r) => [
        `${r.name?.namespace}:${r.name?.type}:${r.name?.subtype}/${r.name?.name}`,
        { ready: r.state === ResourceStatus_State.READY, at: r.lastUpdated ? timestampMs(r.lastUpdated) : 0 },
      ]),
    );
  }

  async function until<T>(what: string, timeoutMs: number, probe: () => Promise<T | undefined> | T | undefined): Promise<T> {
    const deadline = performance.now() + timeoutMs;
    for (;;) {
      const found = await probe();
      if (found !== undefined) return found;
      if (performance.now() > deadline) throw new Error(`${what} within ${timeoutMs} ms; server log:\n${svc.stdout().slice(-3_000)}`);
      await sleep(pollMs);
    }
  }

  return {
    logMark: () => svc.stdout().length,
    logSince: linesAfter,
    waitForLog: (mark, msg, timeoutMs = 10_000) => until(`no log line ${JSON.stringify(msg)}`, timeoutMs, () => linesAfter(mark).find((l) => l.msg === msg)),
    waitForReady: (resource, sinceMs, timeoutMs = 10_000) =>
      until(`${resource} was not READY`, timeoutMs, async () => {
        const found = (await statuses()).get(resource);
        return found?.ready && found.at >= sinceMs ? found.at : undefined;
      }),
    waitForGone: (resources, timeoutMs = 10_000) =>
      until(`${resources.join(", ")} still listed`, timeoutMs, async () => {
        const listed = await statuses();
        return resources.some((r) => listed.has(r)) ? undefined : true;
      }).then(() => undefined),
  };
}
