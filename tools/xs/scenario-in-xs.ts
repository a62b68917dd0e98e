// Runs an async scenario function of the core inside XS: the module that exports it is bundled
// the way the MCU bundle is (platform neutral, refusing any Node builtin), loaded into a real XS
// worker, and the scenario's result comes back as XS's own JSON text, to compare byte for byte
// with Node's.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { build } from "esbuild";
import { nodeBuiltinGuard } from "../build/neutral-guard.mjs";
import { XsWorker, bundleAsScript } from "./xs-worker.js";

export class ScenarioInXs {
  private constructor(private readonly worker: XsWorker) {}

  /** Bundles `entry` (a .ts module) and loads it into a new XS worker. */
  static async start(entry: string): Promise<ScenarioInXs> {
    const dir = mkdtempSync(join(tmpdir(), "svc-xs-scenario-"));
    try {
      await build({
        entryPoints: [entry],
        outfile: join(dir, "scenario.mjs"),
        bundle: true,
        platform: "neutral",
        mainFields: ["module", "main"],
        target: "es2020",
        format: "esm",
        plugins: [nodeBuiltinGuard()],
        logLevel: "error",
      });
      const worker = new XsWorker();
      await worker.evaluate(bundleAsScript(join(dir, "scenario.mjs"), "svcScenario"));
      return new ScenarioInXs(worker);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }

  /** Calls the exported function `fn` (async or not) with `input`; resolves to XS's JSON of its result. */
  async run(fn: string, input: unknown): Promise<string> {
    // XS settles the promise before the evaluate command returns, since its job queue is drained.
    // The input goes through JSON.parse, not a literal, so a "__proto__" key stays a key.
    await this.worker.evaluate(`
      globalThis.scenarioJson = undefined;
      new Promise((resolve) => resolve(globalThis.svcScenario[${JSON.stringify(fn)}](JSON.parse(${JSON.stringify(JSON.stringify(input))})))).then(
        (out) => { globalThis.scenarioJson = JSON.stringify(out); },
        (e) => { globalThis.scenarioJson = JSON.stringify({ error: String(e && e.stack || e) }); },
      );
      globalThis.handleCommand = () => new TextEncoder().encode(String(globalThis.scenarioJson)).buffer;
    `);
    return (await this.worker.command("result")).reply;
  }

  close(): Promise<void> {
    return this.worker.close();
  }
}
