// The MCU bundle must never reach Node: the build fails and names the import and its importer.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { build } from "esbuild";
import { describe, expect, it } from "vitest";
import { nodeBuiltinGuard } from "../../tools/build/neutral-guard.mjs";

async function bundleNeutral(source: string): Promise<string[]> {
  const dir = mkdtempSync(join(tmpdir(), "svc-guard-"));
  const entry = join(dir, "entry.ts");
  writeFileSync(join(dir, "helper.ts"), source);
  writeFileSync(entry, `export * from "./helper.js";\n`);
  try {
    await build({ entryPoints: [entry], bundle: true, write: false, platform: "neutral", logLevel: "silent", plugins: [nodeBuiltinGuard()] });
    return [];
  } catch (e) {
    return (e as { errors: Array<{ text: string }> }).errors.map((x) => x.text);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe("the MCU build's guard against Node", () => {
  it.each([
    ['import { readFileSync } from "fs"; export const f = readFileSync;', '"fs"'],
    ['import { join } from "node:path"; export const j = join;', '"node:path"'],
    ['import { promisify } from "util"; export const p = promisify;', '"util"'],
    ['import { EventEmitter } from "events"; export const E = EventEmitter;', '"events"'],
    ['import { Buffer } from "buffer"; export const B = Buffer;', '"buffer"'],
    ['import { readFile } from "fs/promises"; export const r = readFile;', '"fs/promises"'],
  ])("fails on %s, naming the import and the file", async (source, named) => {
    const errors = await bundleNeutral(source);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toContain(`must not use Node: ${named}`);
    expect(errors[0]).toContain("helper.ts");
  });

  it("lets platform-neutral code through", async () => {
    expect(await bundleNeutral("export const twice = (n: number) => n * 2;")).toEqual([]);
  });
});
