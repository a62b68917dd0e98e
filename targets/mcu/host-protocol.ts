// The bytes a host shim and the XS side exchange, one command and one reply at a time. The shim
// only moves HTTP requests in and responses out, tells the time and hands over random bytes (XS
// has no secure source of its own); everything above the socket runs in XS. Shared by both sides, so the format is written down once.
//
// Command: u8 kind, f64 now (ms), then
//   config:  u32 id, the configuration text (UTF-8, to the end); answered like a request, with
//            the JSON report of what became of it
//   request: u32 id, str method, str path, str headers ("name: value\n" lines), str peer (the
//            client's address, "" unknown), u8 flags (1: the body went past the limit and was
//            dropped), sized entropy (random bytes from the host, for tokens), body (to the end)
//   tick:    nothing
//   cancel:  u32 id
// Reply: f64 next timer due (NaN: none), u32 calls still running, u32 n, n times
//   (u32 id, u16 status, str headers, u32 length, body), str logs (a JSON array of entries, or "").
// str is u32 length + UTF-8. Numbers are little-endian.
import { decodeUtf8, encodeUtf8 } from "./codec/index.js";

export const COMMAND_CONFIG = 1;
export const COMMAND_REQUEST = 2;
export const COMMAND_TICK = 3;
export const COMMAND_CANCEL = 4;

export type HostCommand =
  | { kind: typeof COMMAND_CONFIG; now: number; id: number; text: string }
  | {
      kind: typeof COMMAND_REQUEST;
      now: number;
      id: number;
      method: string;
      path: string;
      headers: Array<[string, string]>;
      body: Uint8Array;
      /** The client's address; "" when unknown (the default). */
      peer?: string;
      /** The body went past the request's limit and was dropped (`body` is then empty). */
      bodyDropped?: boolean;
      /** Fresh random bytes from the host's secure source, for the XS side's tokens. */
      entropy?: Uint8Array;
    }
  | { kind: typeof COMMAND_TICK; now: number }
  | { kind: typeof COMMAND_CANCEL; now: number; id: number };

export interface FinishedExchange {
  id: number;
  status: number;
  headers: Array<[string, string]>;
  body: Uint8Array;
}

export interface HostReply {
  /** When the XS side next needs the time told (a timer falls due), or undefined. */
  nextDue: number | undefined;
  /** Calls started and not yet answered. */
  running: number;
  finished: FinishedExchange[];
  /** Log entries written since the last reply, as a JSON array, or "". */
  logs: string;
}

function createBuilder() {
  let buf = new Uint8Array(256);
  let view = new DataView(buf.buffer);
  let pos = 0;
  function room(n: number): void {
    if (pos + n <= buf.length) return;
    let size = buf.length * 2;
    while (size < pos + n) size *= 2;
    const grown = new Uint8Array(size);
    grown.set(buf.subarray(0, pos));
    buf = grown;
    view = new DataView(buf.buffer);
  }
  const b = {
    u8(n: number) {
      room(1);
      view.setUint8(pos, n);
      pos += 1;
    },
    u16(n: number) {
      room(2);
      view.setUint16(pos, n, true);
      pos += 2;
    },
    u32(n: number) {
      room(4);
      view.setUint32(pos, n, true);
      pos += 4;
    },
    f64(n: number) {
      room(8);
      view.setFloat64(pos, n, true);
      pos += 8;
    },
    raw(bytes: Uint8Array) {
      room(bytes.length);
      buf.set(bytes, pos);
      pos += bytes.length;
    },
    sized(bytes: Uint8Array) {
      b.u32(bytes.length);
      b.raw(bytes);
    },
    str(text: string) {
      b.sized(encodeUtf8(text));
    },
    done: () => buf.slice(0, pos),
  };
  return b;
}

function createParser(bytes: Uint8Array) {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let pos = 0;
  function take(n: number): number {
    if (pos + n > bytes.length) throw new Error("host protocol: the message ends early");
    pos += n;
    return pos - n;
  }
  const p = {
    u8: () => view.getUint8(take(1)),
    u16: () => view.getUint16(take(2), true),
    u32: () => view.getUint32(take(4), true),
    f64: () => view.getFloat64(take(8), true),
    raw(n: number): Uint8Array {
      const at = take(n);
      return bytes.subarray(at, at + n);
    },
    rest: () => p.raw(bytes.length - pos),
    sized: () => p.raw(p.u32()),
    str: () => decodeUtf8(p.sized()),
  };
  return p;
}

function headerText(headers: ReadonlyArray<readonly [string, string]>): string {
  let out = "";
  for (const [name, value] of headers) out += `${name}: ${value}\n`;
  return out;
}

function headerList(text: string): Array<[string, string]> {
  const out: Array<[string, string]> = [];
  for (const line of text.split("\n")) {
    const colon = line.indexOf(": ");
    if (colon > 0) out.push([line.slice(0, colon), line.slice(colon + 2)]);
  }
  return out;
}

export function encodeCommand(command: HostCommand): Uint8Array {
  const b = createBuilder();
  b.u8(command.kind);
  b.f64(command.now);
  switch (command.kind) {
    case COMMAND_CONFIG:
      b.u32(command.id);
      b.raw(encodeUtf8(command.text));
      break;
    case COMMAND_REQUEST:
      b.u32(command.id);
      b.str(command.method);
      b.str(command.path);
      b.str(headerText(command.headers));
      b.str(command.peer ?? "");
      b.u8(command.bodyDropped ? 1 : 0);
      b.sized(command.entropy ?? new Uint8Array(0));
      b.raw(command.body);
      break;
    case COMMAND_CANCEL:
      b.u32(command.id);
      break;
  }
  return b.done();
}

export function decodeCommand(bytes: Uint8Array): HostCommand {
  const p = createParser(bytes);
  const kind = p.u8();
  const now = p.f64();
  switch (kind) {
    case COMMAND_CONFIG:
      return { kind, now, id: p.u32(), text: decodeUtf8(p.rest()) };
    case COMMAND_REQUEST: {
      const id = p.u32();
      const method = p.str();
      const path = p.str();
      const headers = headerList(p.str());
      const peer = p.str();
      const bodyDropped = (p.u8() & 1) === 1;
      const entropy = p.sized().slice();
      return { kind, now, id, method, path, headers, peer, bodyDropped, entropy, body: p.rest().slice() };
    }
    case COMMAND_TICK:
      return { kind, now };
    case COMMAND_CANCEL:
      return { kind, now, id: p.u32() };
    default:
      throw new Error(`host protocol: unknown command ${kind}`);
  }
}

export function encodeReply(reply: HostReply): Uint8Array {
  const b = createBuilder();
  b.f64(reply.nextDue ?? NaN);
  b.u32(reply.running);
  b.u32(reply.finished.length);
  for (const f of reply.finished) {
    b.u32(f.id);
    b.u16(f.status);
    b.str(headerText(f.headers));
    b.sized(f.body);
  }
  b.str(reply.logs);
  return b.done();
}

export function decodeReply(bytes: Uint8Array): HostReply {
  const p = createParser(bytes);
  const due = p.f64();
  const running = p.u32();
  const finished: FinishedExchange[] = [];
  for (let n = p.u32(); n > 0; n--) {
    const id = p.u32();
    const status = p.u16();
    const headers = headerList(p.str());
    finished.push({ id, status, headers, body: p.sized().slice() });
  }
  return { nextDue: isNaN(due) ? undefined : due, running, finished, logs: p.str() };
}
