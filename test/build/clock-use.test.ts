// The agent and the module supervisor wait and measure on the core's Clock only: a Date.now(),
// a new Date(), performance.now() or a bare timer there fails the suite, naming file and line.
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { scratchProjects } from "../helpers/scratch-project.js";
import { unclockedTimeUses } from "../../tools/check/clock-use.mjs";

const repo = join(import.meta.dirname, "..", "..");
const project = scratchProjects("clock-use", { lib: ["ES2022", "DOM"] });

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
