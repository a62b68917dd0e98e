// Loads the MCU bundle (dist/mcu/core.mjs) into an XS worker and calls its exports with JSON
// arguments, so tests and benchmarks can compare the core's answers in XS with Node's.
import { existsSync } from "node:fs";
import { join } from "node:path";
import { XsWorker, bundleAsScript, type XsReply } from "./xs-worker.js";

export const mcuBundlePath = join(import.meta.dirname, "..", "..", "dist", "mcu", "core.mjs");

// Inside XS: `{fn, args}` in, `{ok, json}` or `{ok: false, error}` out, JSON both ways.
const dispatcher = `
globalThis.handleCommand = (bytes) => {
  let answer;
  try {
    const { fn, args } = JSON.parse(new TextDecoder().decode(bytes));
    const target = globalThis.svcCore[fn];
    if (typeof target !== "function") throw new Error("no export named " + fn);
    answer = { ok: true, json: JSON.stringify(target(...args)) };
  } catch (e) {
    answer = { ok: false, error: String(e && e.stack || e) };
  }
  return new TextEncoder().encode(JSON.stringify(answer)).buffer;
};
`;

export class CoreInXs {
  private constructor(private readonly worker: XsWorker) {}

  static async start(bundlePath = mcuBundlePath): Promise<CoreInXs> {
    if (!existsSync(bundlePath)) throw new Error(`${bundlePath} is missing: run "npm run build" first`);
    const worker = new XsWorker();
    await worker.evaluate(bundleAsScript(bundlePath, "svcCore"));
    await worker.evaluate(dispatcher);
    return new CoreInXs(worker);
  }

  /** Calls an export of the core in XS; returns the JSON text of its result. */
  async callRaw(fn: string, ...args: unknown[]): Promise<{ json: string; meters: XsReply["meters"] }> {
    const { reply, meters } = await this.worker.command(JSON.stringify({ fn, args }));
    const parsed = JSON.parse(reply) as { ok: boolean; json?: string; error?: string };
    if (!parsed.ok) throw new Error(`XS ${fn}: ${parsed.error}`);
    // The JSON text is XS's own serialization, so callers can compare it byte for byte.
    return { json: parsed.json ?? "undefined", meters };
  }

  async call<T>(fn: string, ...args: unknown[]): Promise<T> {
    return JSON.parse((await this.callRaw(fn, ...args)).json) as T;
  }

  evaluate(code: string): Promise<XsReply> {
    return this.worker.evaluate(code);
  }

  close(): Promise<void> {
    return this.worker.close();
  }
}
