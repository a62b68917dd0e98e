// The shim's conversation with its XS worker: each command sent and its reply read, the exchanges
// the reply finishes handed to whoever waits for them, the machine's log entries passed on, and a
// tick sent when the XS side's next timer falls due (the worker has no timers of its own).
import {
  COMMAND_CONFIG,
  COMMAND_TICK,
  decodeReply,
  encodeCommand,
  type FinishedExchange,
  type HostCommand,
  type HostReply,
} from "../../targets/mcu/host-protocol.js";
import type { ConfigReport } from "../../targets/mcu/svc-mcu.js";
import type { XsWorker } from "../xs/xs-worker.js";

export interface McuLogEntry {
  time: number;
  level: string;
  logger: string;
  message: string;
  fields: Record<string, unknown>;
}

export interface WorkerLinkOptions {
  worker: XsWorker;
  /** The time told to the XS side, in milliseconds since the epoch. */
  now(): number;
  onLog?: (entry: McuLogEntry) => void;
}

export interface WorkerLink {
  readonly closing: boolean;
  send(command: HostCommand): Promise<HostReply>;
  /** Sends the command made for a new exchange id; `done` resolves when a reply finishes it. */
  exchange(command: (id: number) => HostCommand): { id: number; done: Promise<FinishedExchange> };
  /** Applies a configuration in the running worker. */
  pushConfig(config: string | object): Promise<ConfigReport>;
  /** Sends nothing more (no more ticks). */
  close(): void;
}

const textOf = (config: string | object) => (typeof config === "string" ? config : JSON.stringify(config));

export function createWorkerLink(options: WorkerLinkOptions): WorkerLink {
  const { worker, now, onLog } = options;
  let nextId = 1;
  let timer: NodeJS.Timeout | undefined;
  let wakeAt = Infinity;
  let closing = false;
  const waiting = new Map<number, (done: FinishedExchange) => void>();

  async function send(command: HostCommand): Promise<HostReply> {
    const reply = decodeReply((await worker.commandBytes(encodeCommand(command))).reply);
    for (const done of reply.finished) {
      const resolve = waiting.get(done.id);
      waiting.delete(done.id);
      resolve?.(done);
    }
    if (reply.logs !== "" && onLog) for (const entry of JSON.parse(reply.logs) as McuLogEntry[]) onLog(entry);
    wakeFor(reply.nextDue);
    return reply;
  }

  /** Comes back when the XS side's next timer falls due. */
  function wakeFor(due: number | undefined): void {
    if (closing || due === undefined || due >= wakeAt) return;
    if (timer) clearTimeout(timer);
    wakeAt = due;
    timer = setTimeout(() => {
      timer = undefined;
      wakeAt = Infinity;
      if (!closing) send({ kind: COMMAND_TICK, now: now() }).catch(() => {});
    }, Math.max(0, due - now()));
  }

  function exchange(command: (id: number) => HostCommand): { id: number; done: Promise<FinishedExchange> } {
    const id = nextId++;
    const done = new Promise<FinishedExchange>((resolve, reject) => {
      waiting.set(id, resolve);
      send(command(id)).catch((error: unknown) => {
        waiting.delete(id);
        reject(error);
      });
    });
    return { id, done };
  }

  return {
    get closing() {
      return closing;
    },
    send,
    exchange,
    async pushConfig(next) {
      const { done } = exchange((id) => ({ kind: COMMAND_CONFIG, now: now(), id, text: textOf(next) }));
      return JSON.parse(Buffer.from((await done).body).toString("utf8")) as ConfigReport;
    },
    close() {
      closing = true;
      if (timer) clearTimeout(timer);
    },
  };
}
