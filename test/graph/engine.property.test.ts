// Random machines (DAGs of up to 500 resources, some of them failing) taken through random
// configuration changes: additions, removals and returns, attribute changes, dependency changes.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { ResourceConfig } from "../../core/config/index.js";
import { cfg, createTestMachine, machine, TEST_APIS, type TestMachine } from "./test-machine.js";

interface UniverseNode {
  api: string;
  name: string;
  /** Two alternative depends_on lists (indexes of earlier nodes) and how each reference is written. */
  deps: [number[], number[]];
  fullRef: boolean[];
  optional: number | undefined;
}

interface Version {
  present: boolean[];
  value: number[];
  fail: boolean[];
  /** Builds that fail this many times before they succeed. */
  flaky: number[];
  variant: number[];
}

function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function universe(size: number, rand: () => number): UniverseNode[] {
  const nodes: UniverseNode[] = [];
  const pickDeps = (i: number) => {
    const count = i === 0 ? 0 : Math.floor(rand() * Math.min(4, i + 1));
    const set = new Set<number>();
    for (let k = 0; k < count; k++) set.add(Math.floor(rand() * i));
    return [...set];
  };
  for (let i = 0; i < size; i++) {
    nodes.push({
      api: TEST_APIS[Math.floor(rand() * TEST_APIS.length)]!,
      name: `n${i}`,
      deps: [pickDeps(i), pickDeps(i)],
      fullRef: Array.from({ length: size }, () => rand() < 0.3),
      optional: i > 0 && rand() < 0.1 ? Math.floor(rand() * i) : undefined,
    });
  }
  return nodes;
}

function firstVersion(size: number, rand: () => number): Version {
  return {
    present: Array.from({ length: size }, () => rand() < 0.95),
    value: Array.from({ length: size }, () => 0),
    fail: Array.from({ length: size }, () => rand() < 0.01),
    flaky: Array.from({ length: size }, () => (rand() < 0.05 ? 1 + Math.floor(rand() * 3) : 0)),
    variant: Array.from({ length: size }, () => 0),
  };
}

function mutate(v: Version, rand: () => number, rate: number): Version {
  const flip = (p: number) => rand() < p * rate;
  // Some edits keep the machine's shape (same resources, same references): the planner's fast path.
  const keepShape = rand() < 0.4;
  return {
    present: keepShape ? v.present : v.present.map((x) => (flip(0.04) ? !x : x)),
    value: v.value.map((x) => (flip(0.1) ? x + 1 : x)),
    fail: v.fail.map((x) => (flip(0.01) ? !x : x)),
    flaky: v.flaky,
    variant: keepShape ? v.variant : v.variant.map((x) => (flip(0.06) ? 1 - x : x)),
  };
}

const fullName = (n: UniverseNode) => `${n.api}/${n.name}`;

function configOf(u: UniverseNode[], v: Version): ResourceConfig[] {
  const list: ResourceConfig[] = [];
  for (let i = 0; i < u.length; i++) {
    if (!v.present[i]) continue;
    const n = u[i]!;
    const attributes: Record<string, unknown> = { value: v.value[i], yields: i % 4 };
    if (v.fail[i]) attributes.fail = "boom";
    if (v.flaky[i]) attributes.failTimes = v.flaky[i];
    if (n.optional !== undefined) attributes.mayUse = fullName(u[n.optional]!);
    const depends_on = n.deps[v.variant[i]!]!.map((j) => (n.fullRef[j] ? fullName(u[j]!) : u[j]!.name));
    list.push(cfg(n.api, n.name, { attributes, depends_on }));
  }
  return list;
}

/** The resources a change from `a` to `b` may touch: changed ones and everything depending on them. */
function affected(u: UniverseNode[], a: Version, b: Version): Set<string> {
  const hit: boolean[] = [];
  const out = new Set<string>();
  for (let i = 0; i < u.length; i++) {
    if (!b.present[i]) continue;
    const n = u[i]!;
    const deps = n.deps[b.variant[i]!]!.concat(n.optional === undefined ? [] : [n.optional]);
    const depsBefore = n.deps[a.variant[i]!]!.slice().sort().join();
    const depsAfter = n.deps[b.variant[i]!]!.slice().sort().join();
    let own = !a.present[i] || a.value[i] !== b.value[i] || a.fail[i] !== b.fail[i] || depsBefore !== depsAfter;
    for (const j of deps) if (a.present[j] !== b.present[j] || hit[j]) own = true;
    hit[i] = own;
    if (own) out.add(fullName(n));
  }
  return out;
}

function states(m: TestMachine): Map<string, string> {
  const out = new Map<string, string>();
  for (const s of m.engine.status().resources) out.set(s.name, s.state);
  return out;
}

describe("the engine on random machines and random changes", () => {
  it("keeps every promise of the graph", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 500 }),
        fc.integer({ min: 1, max: 5 }),
        fc.integer({ min: 1, max: 10 }),
        fc.double({ min: 0.1, max: 3, noNaN: true }),
        fc.integer(),
        fc.array(fc.constantFrom(0, 0, 1000, 3000, 20_000), { minLength: 6, maxLength: 6 }),
        async (size, steps, cap, rate, seed, pauses) => {
          const rand = random(seed);
          const u = universe(size, rand);
          const versions = [firstVersion(size, rand)];
          for (let s = 0; s < steps; s++) versions.push(mutate(versions[versions.length - 1]!, rand, rate));

          const m = createTestMachine({ buildConcurrency: cap });
          const pause = async (ms: number) => {
            await m.clock.advance(ms);
            await m.engine.whenIdle();
            expect(m.journal.violations).toEqual([]);
          };
          await m.engine.apply(machine(configOf(u, versions[0]!)));
          await m.engine.whenIdle();
          expect(m.journal.violations).toEqual([]);
          await pause(pauses[0]!);

          for (let s = 1; s < versions.length; s++) {
            const before = states(m);
            const instances = new Map(m.journal.live);
            const buildsBefore = m.journal.builds.length;
            await m.engine.apply(machine(configOf(u, versions[s]!)));
            await m.engine.whenIdle();
            expect(m.journal.violations).toEqual([]);
            const touched = affected(u, versions[s - 1]!, versions[s]!);
            // Unchanged resources whose dependencies are unchanged are never rebuilt ...
            for (const name of m.journal.builds.slice(buildsBefore)) {
              if (!touched.has(name)) expect(before.get(name), `${name} rebuilt though untouched`).not.toBe("READY");
            }
            // ... keep the very instance they had, and touched running ones get a new one.
            for (const [name, instance] of instances) {
              const now = m.journal.live.get(name);
              if (!touched.has(name) && before.get(name) === "READY" && m.engine.resourceStatus(name)) expect(now).toBe(instance);
              if (touched.has(name) && now !== undefined) expect(now).not.toBe(instance);
            }
            // Time passes: failed builds are retried, waiting dependents follow.
            await pause(pauses[s]!);
          }
          // Long enough for every flaky build to have come up through its retries.
          await pause(600_000);
          expect(m.journal.maxInFlight).toBeLessThanOrEqual(cap);

          // Every running resource holds the running instances of its dependencies.
          for (const [name, instance] of m.journal.live) {
            expect(m.engine.resourceStatus(name)?.state).toBe("READY");
            for (const [depName, dep] of instance.deps) expect(m.journal.live.get(depName), `${name} holds an old ${depName}`).toBe(dep);
          }

          // The final state is the one a fresh machine reaches from the final configuration.
          const fresh = createTestMachine({ buildConcurrency: cap });
          await fresh.engine.apply(machine(configOf(u, versions[versions.length - 1]!)));
          await fresh.engine.whenIdle();
          await fresh.clock.advance(600_000);
          await fresh.engine.whenIdle();
          expect(m.snapshot()).toEqual(fresh.snapshot());
          await fresh.engine.close();

          // Shutdown closes dependents first (checked by the model), each resource once, all of them.
          const running = m.journal.live.size;
          const report = await m.engine.close();
          expect(report.closed.length).toBe(running);
          expect(m.journal.live.size).toBe(0);
          expect(m.journal.violations).toEqual([]);
        },
      ),
      { numRuns: 40 },
    );
  }, 120_000);
});
