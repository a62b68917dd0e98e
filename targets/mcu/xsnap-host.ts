// The MCU target on a host's XS engine (xsnap-worker), driven by the Node shim in tools/mcu-shim:
// each command of the host protocol arrives through `handleCommand`, moves the driven clock to
// the time it carries, then starts a call, applies a configuration or cancels a call. Calls that
// finish are handed back with the reply, with the next timer's deadline so the shim knows when
// to come back. Boards are simulated (hal/sim), one per board entry. Random bytes for access
// tokens come from the host with each request (XS has no secure source), and the shim says which
// address a request came from and whether its body went past the limit.
import { errorMessage, type LogEntry, type LogSink } from "../../core/index.js";
import { encodeUtf8 } from "./codec/index.js";
import { createSimBoard } from "../../hal/sim/index.js";
import { createDrivenClock, type DrivenClock } from "./driven-clock.js";
import {
  COMMAND_CANCEL,
  COMMAND_CONFIG,
  COMMAND_REQUEST,
  decodeCommand,
  encodeReply,
  type FinishedExchange,
  type HostCommand,
} from "./host-protocol.js";
import type { ApiKeyGateSettings } from "./api-key-gate.js";
import { createHttpExchange, type HttpCall, type HttpExchange, type HttpResponse } from "./http-exchange.js";
import { createMcuMachine, type McuMachine } from "./mcu-machine.js";

export interface XsnapHostOptions {
  /** Reported by GetVersion. */
  version?: string;
  heartbeatWindowMs?: number;
  /** Whether PUT /svc/config takes a configuration. Default false. */
  configRoute?: boolean;
  /** Log entries kept between replies; older ones are dropped. Default 500. */
  maxLogEntries?: number;
  /** Token life and number, names and port, plaintext (see ApiKeyGateSettings). */
  apiKeys?: ApiKeyGateSettings;
}

interface XsnapGlobals {
  handleCommand?: (message: ArrayBuffer) => { result?: ArrayBuffer };
  setImmediate?: (fn: () => void) => void;
}

interface World {
  clock: DrivenClock;
  machine: McuMachine;
  exchange: HttpExchange;
}

/** Random bytes the host sent, kept until used (each used once); bounded, newest kept. */
function createEntropyPool(capacity = 256) {
  let pool = new Uint8Array(0);
  return {
    add(bytes: Uint8Array): void {
      if (bytes.length === 0) return;
      const joined = new Uint8Array(pool.length + bytes.length);
      joined.set(pool);
      joined.set(bytes, pool.length);
      pool = joined.length > capacity ? joined.slice(joined.length - capacity) : joined;
    },
    take(count: number): Uint8Array {
      if (pool.length < count) throw new Error(`the host has sent ${pool.length} unused random bytes, not ${count}`);
      const out = pool.slice(0, count);
      pool = pool.slice(count);
      return out;
    },
  };
}

function failure(status: number, thrown: unknown): HttpResponse {
  const message = errorMessage(thrown);
  return { status, headers: [["content-type", "text/plain; charset=utf-8"]], body: encodeUtf8(`${message}\n`) };
}

/** Installs `globalThis.handleCommand` for xsnap-worker. */
export function installXsnapHost(options: XsnapHostOptions = {}): void {
  const host = globalThis as unknown as XsnapGlobals;
  const immediate = host.setImmediate;
  // xsnap runs its setImmediate callbacks once the promise jobs are done: a true "settled".
  const drain = immediate ? () => new Promise<void>((resolve) => immediate(resolve)) : undefined;
  const maxLogs = options.maxLogEntries ?? 500;
  const running = new Map<number, HttpCall>();
  const finished: FinishedExchange[] = [];
  const logs: LogEntry[] = [];
  const entropy = createEntropyPool();
  const sink: LogSink = {
    write(entry) {
      logs.push(entry);
      if (logs.length > maxLogs) logs.shift();
    },
  };
  let world: World | undefined;

  function worldAt(now: number): World {
    if (world) return world;
    const clock = createDrivenClock({ start: now, drain });
    const machine = createMcuMachine({
      clock,
      random: Math.random,
      randomBytes: entropy.take,
      apiKeys: options.apiKeys,
      ioForBoard: (config) => createSimBoard({ name: config.name }).io,
      sink,
      version: options.version,
      heartbeatWindowMs: options.heartbeatWindowMs,
    });
    const exchange = createHttpExchange({ serve: machine.serve, clock, auth: machine.auth, applyConfig: options.configRoute ? machine.applyConfig : undefined });
    world = { clock, machine, exchange };
    return world;
  }

  function follow(id: number, done: Promise<HttpResponse>): void {
    done.then(
      (response) => finished.push({ id, ...response }),
      (thrown: unknown) => finished.push({ id, ...failure(500, thrown) }),
    ).then(() => running.delete(id));
  }

  async function run(command: HostCommand): Promise<void> {
    const { clock, machine, exchange } = worldAt(command.now);
    await clock.advanceTo(command.now);
    switch (command.kind) {
      case COMMAND_CONFIG: {
        const done = machine.applyConfig(command.text).then((report) => ({
          status: 200,
          headers: [["content-type", "application/json"]] as Array<[string, string]>,
          body: encodeUtf8(JSON.stringify(report)),
        }));
        running.set(command.id, { done, cancel: () => {} });
        follow(command.id, done);
        break;
      }
      case COMMAND_REQUEST: {
        const headers = new Map(command.headers.map(([name, value]) => [name.toLowerCase(), value]));
        entropy.add(command.entropy ?? new Uint8Array(0));
        const head = { method: command.method, path: command.path, header: (name: string) => headers.get(name), peer: command.peer };
        const call = command.bodyDropped ? exchange.open(head).finish(undefined) : exchange.handle({ ...head, body: command.body });
        running.set(command.id, call);
        follow(command.id, call.done);
        break;
      }
      case COMMAND_CANCEL:
        running.get(command.id)?.cancel();
        break;
    }
    if (drain) await drain();
  }

  function logText(): string {
    if (logs.length === 0) return "";
    const entries = logs.splice(0);
    try {
      return JSON.stringify(entries);
    } catch {
      return JSON.stringify(entries.map((e) => ({ ...e, fields: {} })));
    }
  }

  host.handleCommand = (message) => {
    const reply: { result?: ArrayBuffer } = {};
    let command: HostCommand | undefined;
    let problem: unknown;
    try {
      command = decodeCommand(new Uint8Array(message));
    } catch (thrown) {
      problem = thrown;
    }
    const work = command ? run(command) : Promise.reject(problem);
    // xsnap reads `result` once every job has run, so this is set before the reply leaves.
    work
      .catch((thrown: unknown) => sink.write({ time: world?.clock.now() ?? 0, level: "error", logger: "svc.mcu", message: String(thrown), fields: {} }))
      .then(() => {
        const bytes = encodeReply({ nextDue: world?.clock.nextDue(), running: running.size, finished: finished.splice(0), logs: logText() });
        reply.result = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
      });
    return reply;
  };
}
