// The agent and the module supervisor wait and measure on the core's Clock only: a Date.now(),
// a new Date(), performance.now() or a bare timer there fails the suite, naming file and line.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { unclockedTimeUses } from "../../tools/check/clock-use.mjs";

const repo = join(import.meta.dirname, "..", "..");
const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function project(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), "svc-clock-use-"));
  dirs.push(dir);
  writeFileSync(join(dir, "tsconfig.json"), JSON.stringify({ compilerOptions: { strict: true, noEmit: true, lib: ["ES2022", "DOM"] }, include: ["."] }));
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, name)), { recursive: true });
    writeFileSync(join(dir, name), text);
  }
  return dir;
}

describe("the clock use check", () => {
  it("names every read of wall time and every bare timer in the clocked folders", () => {
    const dir = project({
      "agent/waits.ts": [
        "export const a = Date.now();",
        "export const b = { now: Date.now };",
        "export const c = new Date();",
        "export const d = performance.now();",
        "const t = setTimeout(() => {}, 1);",
        "clearTimeout(t);",
        "export const e = setInterval(() => {}, 1);",
        "globalThis.setTimeout(() => {}, 1);",
      ].join("\n"),
      "elsewhere/free.ts": "export const f = Date.now();",
    });
    expect(unclockedTimeUses(dir, ["agent"]).map((u) => `${u.file}:${u.line} ${u.use}`)).toEqual([
      "agent/waits.ts:1 Date.now",
      "agent/waits.ts:2 Date.now",
      "agent/waits.ts:3 new Date()",
      "agent/waits.ts:4 performance.now",
      "agent/waits.ts:5 setTimeout",
      "agent/waits.ts:6 clearTimeout",
      "agent/waits.ts:7 setInterval",
      "agent/waits.ts:8 globalThis.setTimeout",
    ]);
  });

  it("lets a Clock's own timers and a date from a given time through", () => {
    const dir = project({
      "agent/clocked.ts": [
        "interface Clock { now(): number; setTimeout(fn: () => void, ms: number): unknown; clearTimeout(h: unknown): void }",
        "export function wait(clock: Clock): string {",
        "  const timer = clock.setTimeout(() => {}, clock.now());",
        "  clock.clearTimeout(timer);",
        "  return new Date(clock.now()).toISOString();",
        "}",
      ].join("\n"),
    });
    expect(unclockedTimeUses(dir, ["agent"])).toEqual([]);
  });

  it("finds no time outside the Clock in svc-agent and the module supervisor", () => {
    expect(unclockedTimeUses(repo).map((u) => `${u.file}:${u.line} ${u.use}`)).toEqual([]);
  });
});
