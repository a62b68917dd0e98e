// Runs JavaScript in the real XS engine (Moddable's, as built by @agoric/xsnap) from Node.
// The worker binary is driven directly over its netstring protocol on fds 3 (to XS) and 4
// (from XS), so the test process needs no SES lockdown. Each command returns the reply and
// the XS meters (compute steps, heap), which the benchmarks read.
import { spawn, type ChildProcess } from "node:child_process";
import type { Writable } from "node:stream";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { transformSync } from "esbuild";

export interface XsMeters {
  compute: number;
  currentHeapCount: number;
  allocate: number;
}

export interface XsReply {
  reply: string;
  meters: XsMeters;
}

const require = createRequire(import.meta.url);

function workerBinary(): string {
  const pkg = dirname(require.resolve("@agoric/xsnap/package.json"));
  return join(pkg, "xsnap-native/xsnap/build/bin/lin/release/xsnap-worker");
}

/** Turns an ES module bundle into a script that leaves its exports on `globalThis[name]`. */
export function bundleAsScript(modulePath: string, globalName: string): string {
  return moduleAsScript(readFileSync(modulePath, "utf8"), globalName);
}

/** Turns an ES module's source into a script that leaves its exports on `globalThis[name]`. */
export function moduleAsScript(source: string, globalName: string): string {
  return transformSync(source, { format: "iife", globalName, target: "es2020" }).code;
}

export class XsWorker {
  private readonly child: ChildProcess;
  private buffered = Buffer.alloc(0);
  private readonly waiting: Array<{ resolve: (m: Buffer) => void; reject: (e: Error) => void }> = [];
  private exited: Error | undefined;
  private queue: Promise<unknown> = Promise.resolve();

  /** @param meteringLimit XS compute steps allowed per command (0: unlimited). */
  constructor(meteringLimit = 0) {
    const args = ["svc-xs", ...(meteringLimit ? ["-l", String(meteringLimit)] : [])];
    this.child = spawn(workerBinary(), args, {
      stdio: ["ignore", "inherit", "inherit", "pipe", "pipe"],
    });
    const fromXs = this.child.stdio[4]!;
    fromXs.on("data", (chunk: Buffer) => this.receive(chunk));
    this.child.on("exit", (code, signal) => {
      this.exited = new Error(`XS worker exited (code ${code}, signal ${signal})`);
      for (const w of this.waiting.splice(0)) w.reject(this.exited);
    });
  }

  /** Evaluates a script in the worker's global scope. */
  evaluate(code: string): Promise<XsReply> {
    return this.send("e" + code);
  }

  /** Calls the worker's `handleCommand` with a string; resolves to its string reply. */
  command(message: string): Promise<XsReply> {
    return this.send("?" + message);
  }

  /** Calls `handleCommand` with bytes; resolves to the bytes of its reply. */
  async commandBytes(message: Uint8Array): Promise<{ reply: Buffer; meters: XsMeters }> {
    const payload = Buffer.concat([Buffer.from("?"), message]);
    const run = this.queue.then(() => this.roundTripBytes(payload));
    this.queue = run.catch(() => undefined);
    const raw = await run;
    const { meters, body } = splitReply(raw);
    return { reply: body, meters };
  }

  /**
   * Writes XS's snapshot of the machine to `path` (collecting garbage first); resolves to its
   * size in bytes. Its sections hold the live chunks ("BLOC") and slots ("HEAP").
   */
  async writeSnapshot(path: string): Promise<number> {
    return Number((await this.send("w" + path)).reply);
  }

  /**
   * Bytes of XS's live chunks (strings, array storage, Map and Set tables, ArrayBuffers, the code
   * each closure made at run time copies): the "BLOC" section of a snapshot, which XS writes
   * after collecting garbage. The heap meter does not count them.
   */
  async liveChunkBytes(): Promise<number> {
    const dir = mkdtempSync(join(tmpdir(), "svc-xs-snapshot-"));
    try {
      const path = join(dir, "machine.xss");
      await this.writeSnapshot(path);
      const bytes = readFileSync(path);
      // Atoms: a 4-byte big-endian size (its header included), then a 4-letter type; "XS_M" holds the rest.
      for (let at = 8; at + 8 <= bytes.length; ) {
        const size = bytes.readUInt32BE(at);
        if (bytes.toString("latin1", at + 4, at + 8) === "BLOC") return size - 8;
        at += size;
      }
      throw new Error("the XS snapshot has no BLOC section");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }

  /** The worker's process id. */
  get pid(): number | undefined {
    return this.child.pid;
  }

  async close(): Promise<void> {
    if (this.exited) return;
    const gone = new Promise((resolve) => this.child.once("exit", resolve));
    this.child.kill("SIGTERM");
    await gone;
  }

  private send(payload: string): Promise<XsReply> {
    const run = this.queue.then(() => this.roundTrip(payload));
    this.queue = run.catch(() => undefined);
    return run;
  }

  private roundTrip(payload: string): Promise<XsReply> {
    return this.roundTripBytes(Buffer.from(payload, "utf8")).then(decodeReply);
  }

  private roundTripBytes(body: Buffer): Promise<Buffer> {
    if (this.exited) return Promise.reject(this.exited);
    const message = new Promise<Buffer>((resolve, reject) => this.waiting.push({ resolve, reject }));
    (this.child.stdio[3] as Writable).write(Buffer.concat([Buffer.from(`${body.length}:`), body, Buffer.from(",")]));
    return message;
  }

  private receive(chunk: Buffer): void {
    this.buffered = Buffer.concat([this.buffered, chunk]);
    for (;;) {
      const colon = this.buffered.indexOf(58);
      if (colon < 0) return;
      const length = Number(this.buffered.subarray(0, colon).toString());
      const end = colon + 1 + length;
      if (this.buffered.length < end + 1) return;
      const message = this.buffered.subarray(colon + 1, end);
      this.buffered = this.buffered.subarray(end + 1);
      this.waiting.shift()?.resolve(Buffer.from(message));
    }
  }
}

/** A reply's meters and body; an error reply from XS throws. */
function splitReply(message: Buffer): { meters: XsMeters; body: Buffer } {
  const kind = String.fromCharCode(message[0]!);
  if (kind === "!") throw new Error(`XS: ${message.subarray(1).toString("utf8")}`);
  if (kind !== ".") throw new Error(`XS protocol: unexpected reply ${JSON.stringify(message.toString())}`);
  const separator = message.indexOf(1, 1);
  const meters = separator > 0 ? JSON.parse(message.subarray(1, separator).toString("utf8")) : {};
  return {
    body: message.subarray(separator > 0 ? separator + 1 : 1),
    meters: {
      compute: meters.compute ?? 0,
      currentHeapCount: meters.currentHeapCount ?? 0,
      allocate: meters.allocate ?? 0,
    },
  };
}

function decodeReply(message: Buffer): XsReply {
  const { meters, body } = splitReply(message);
  return { reply: body.toString("utf8"), meters };
}
