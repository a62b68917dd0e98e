// The MCU target on a device: Moddable's ECMA-419 HTTP server (embedded:network/http/server)
// feeds the machine's HTTP exchange, the clock is the device's (Date.now and Moddable's Timer),
// the IO is `device.io` through hal/mcu, and log entries go to `trace`. The firmware's main.js
// imports the host modules and hands them in, so this file builds with the neutral bundle.
// A request's head decides, before its body arrives, whether it may go on and how much body is
// kept (http-exchange.ts); bytes past that are read and dropped. API keys need the platform's
// secure random bytes, and since a device serves plain HTTP and no caller is on the device
// itself, credentials are taken only when the firmware says so (`allowInsecureCreds`): without
// either, a configuration with keys is refused whole instead of locking everyone out.
import type { Clock, LogSink } from "../../core/index.js";
import type { PinSpecifier } from "../../hal/io.js";
import { createModdableIO, type ModdableIOClasses } from "../../hal/mcu/index.js";
import { createHttpExchange, type HttpArrival, type HttpCall, type HttpExchange, type HttpResponse } from "./http-exchange.js";
import { createMcuMachine, type ConfigReport, type McuMachine } from "./mcu-machine.js";

/** Moddable's `timer` module. */
export interface ModdableTimer {
  set(callback: () => void, ms: number): unknown;
  clear(timer: unknown): void;
}

/** What the route object of an ECMA-419 HTTP server connection offers. */
interface HttpConnection {
  read(count: number): ArrayBuffer | undefined;
  write(buffer: ArrayBuffer | undefined): number;
  respond(response: { status: number; headers: Map<string, string> }): void;
  close(): void;
}

interface RouteState {
  arrival?: HttpArrival;
  chunks: Uint8Array[];
  /** Body bytes read so far, kept or not. */
  size: number;
  call?: HttpCall;
  answer?: HttpResponse;
  sent: number;
}

export interface DeviceOptions {
  /**
   * `device.io`. A platform without it (Moddable's host simulator, some boards) boots all the
   * same: boards then answer each IO call naming the IO this platform lacks.
   */
  io: ModdableIOClasses | undefined;
  /** `device.pin`: header names of pins. */
  pins?: Readonly<Record<string, PinSpecifier>>;
  /** The default export of "embedded:network/http/server". */
  HTTPServer: new (options: Record<string, unknown>) => { close(): void };
  /** The default export of "embedded:io/socket/listener". */
  Listener: unknown;
  /** The default export of "timer". */
  Timer: ModdableTimer;
  /** The stored machine configuration (JSON text). */
  config: string;
  port?: number;
  /** Where log lines go: Moddable's `trace`. */
  trace(text: string): void;
  /** Accept PUT /svc/config, and keep each configuration that was used. */
  saveConfig?: (text: string) => void;
  random?: () => number;
  /**
   * `count` bytes from the platform's secure random source (on an ESP32, esp_random with the
   * radio on), for access tokens. Without it a configuration with API keys is refused.
   */
  randomBytes?: (count: number) => Uint8Array;
  /** Take API keys and tokens over plain HTTP (every caller is on the network). Default false. */
  allowInsecureCreds?: boolean;
  /** Names the device answers to (its mDNS name), which a key without an id may be named by. */
  hostNames?: readonly string[];
  /** How long a token is good for. Default one hour. */
  tokenTtlMs?: number;
}

export interface Device {
  readonly machine: McuMachine;
  close(): Promise<void>;
}

function deviceClock(timer: ModdableTimer): Clock {
  return {
    now: () => Date.now(),
    setTimeout: (fn, ms) => timer.set(fn, Math.max(0, ms)),
    clearTimeout: (handle) => timer.clear(handle),
  };
}

function traceSink(trace: (text: string) => void): LogSink {
  return {
    write(entry) {
      let fields = "";
      for (const key of Object.keys(entry.fields)) fields += ` ${key}=${JSON.stringify(entry.fields[key])}`;
      trace(`${entry.level} ${entry.logger}: ${entry.message}${fields}\n`);
    },
  };
}

function joined(chunks: readonly Uint8Array[]): Uint8Array {
  let size = 0;
  for (const c of chunks) size += c.length;
  const out = new Uint8Array(size);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.length;
  }
  return out;
}

/** The provider's name in IO errors: on a platform without `device.io`, it says so. */
export const NO_DEVICE_IO = "this platform (no device.io: no ECMA-419 Digital, PWM, Analog, I2C, SMBus or Serial)";

/**
 * What the HTTP server calls for each connection. One route object serves every connection: its
 * handlers are made once here (on a microcontroller each closure carries a copy of its code, so
 * none is made per request), the server calls them with the connection as `this`, and each
 * connection's own state is found by it.
 */
function deviceRoutes(exchange: HttpExchange): (connection: { accept(route: object): void }) => void {
  const states = new WeakMap<HttpConnection, RouteState>();
  const stateOf = (connection: HttpConnection): RouteState => {
    let state = states.get(connection);
    if (state === undefined) states.set(connection, (state = { chunks: [], size: 0, sent: 0 }));
    return state;
  };
  const route = {
    onRequest(this: HttpConnection, request: { method: string; path: string; headers: Map<string, string> }) {
      const headers = request.headers;
      // The HTTP server does not say who the peer is: "" (unknown) is never taken for this device itself.
      stateOf(this).arrival = exchange.open({ method: request.method, path: request.path, header: (name) => headers.get(name), peer: "" });
    },
    onReadable(this: HttpConnection, count: number) {
      readBody(this, stateOf(this), count);
    },
    onResponse(this: HttpConnection, response: { status: number; headers: Map<string, string> }) {
      respondWhenReady(this, stateOf(this), response);
    },
    onWritable(this: HttpConnection, count: number) {
      writeBody(this, stateOf(this), count);
    },
    onError(this: HttpConnection) {
      stateOf(this).call?.cancel();
    },
  };
  return (connection) => connection.accept(route);
}

/** Reads everything (the connection must drain), keeping only what the limit allows. */
function readBody(connection: HttpConnection, state: RouteState, count: number): void {
  const data = connection.read(count);
  if (!data) return;
  state.size += data.byteLength;
  if (state.size <= (state.arrival?.limit ?? 0)) state.chunks.push(new Uint8Array(data));
  else state.chunks = [];
}

/** The answer may take a while (a motor's GoFor): responds once it is ready. */
function respondWhenReady(connection: HttpConnection, state: RouteState, response: { status: number; headers: Map<string, string> }): void {
  const arrival = state.arrival!;
  const call = arrival.finish(state.size <= arrival.limit ? joined(state.chunks) : undefined);
  state.call = call;
  void call.done.then((answer) => {
    state.answer = answer;
    response.status = answer.status;
    for (const [name, value] of answer.headers) response.headers.set(name, value);
    response.headers.set("content-length", String(answer.body.length));
    connection.respond(response);
  });
}

function writeBody(connection: HttpConnection, state: RouteState, count: number): void {
  const answer = state.answer;
  if (!answer) return;
  if (state.sent >= answer.body.length) {
    connection.write(undefined);
    return;
  }
  const end = Math.min(answer.body.length, state.sent + count);
  const part = answer.body.slice(state.sent, end);
  state.sent = end;
  connection.write(part.buffer);
}

export function startDevice(options: DeviceOptions): Device {
  const clock = deviceClock(options.Timer);
  const hostIO = options.io && typeof options.io === "object" ? options.io : undefined;
  const io = createModdableIO(hostIO ?? {}, { pins: options.pins, name: hostIO ? "mcu" : NO_DEVICE_IO });
  if (!hostIO) options.trace(`warning svc-mcu: ${NO_DEVICE_IO}; boards cannot reach any pin or bus\n`);
  const port = options.port ?? 80;
  const machine = createMcuMachine({
    clock,
    random: options.random ?? Math.random,
    randomBytes: options.randomBytes,
    apiKeys: {
      port,
      hostNames: options.hostNames,
      tokenTtlMs: options.tokenTtlMs,
      allowInsecureCreds: options.allowInsecureCreds,
      unavailable: options.allowInsecureCreds
        ? undefined
        : "svc-mcu serves plain HTTP and this device was not started with allowInsecureCreds, so no API key or token could be taken over it",
    },
    ioForBoard: () => io,
    sink: traceSink(options.trace),
  });
  const save = options.saveConfig;
  const applyConfig = save
    ? (text: string): Promise<ConfigReport> =>
        machine.applyConfig(text).then((report) => {
          if (report.outcome === "applied" || report.outcome === "deferred") save(text);
          return report;
        })
    : undefined;
  const exchange = createHttpExchange({ serve: machine.serve, clock, applyConfig, auth: machine.auth });
  void machine.applyConfig(options.config);

  const server = new options.HTTPServer({
    io: options.Listener,
    port,
    onConnect: deviceRoutes(exchange),
  });

  return {
    machine,
    async close() {
      server.close();
      await machine.close();
    },
  };
}
