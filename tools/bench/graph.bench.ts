// The resource graph at scale: bringing up 10,000 no-op resources in 100 levels, reconfiguring one
// leaf among them (and counting what was rebuilt), and the same planning inside XS.
import type { Clock } from "../../core/clock.js";
import type { ResourceConfig } from "../../core/config/index.js";
import { createGraphEngine, planReconfigure, type PlanRequest } from "../../core/graph/index.js";
import { createModelRegistry, type ModelRegistry } from "../../core/resource/index.js";
import { CoreInXs } from "../xs/core-in-xs.js";
import { report } from "./report.js";

const LEVELS = 100;
const WIDTH = 100;
const API = "rdk:component:generic";
const MODEL = "rdk:builtin:noop";

const clock: Clock = {
  now: () => performance.now(),
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

/** 100 levels of 100: each resource depends on two of the level below it. */
function machineConfig(leafValue = 0): ResourceConfig[] {
  const list: ResourceConfig[] = [];
  for (let level = 0; level < LEVELS; level++) {
    for (let k = 0; k < WIDTH; k++) {
      const depends_on = level === 0 ? [] : [`r${level - 1}_${k}`, `${API}/r${level - 1}_${(k + 1) % WIDTH}`];
      const last = level === LEVELS - 1 && k === WIDTH - 1;
      list.push({ name: `r${level}_${k}`, api: API, model: MODEL, attributes: { level, k, value: last ? leafValue : 0 }, depends_on });
    }
  }
  return list;
}

function noopRegistry(counter: { builds: number }): ModelRegistry {
  const registry = createModelRegistry();
  registry.register({
    api: API,
    model: MODEL,
    build: async (ctx) => {
      counter.builds++;
      return { name: ctx.name, close: async () => undefined };
    },
  });
  return registry;
}

function median(values: number[]): number {
  const sorted = values.slice().sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

async function startUp(): Promise<number> {
  const times: number[] = [];
  for (let run = 0; run < 6; run++) {
    const counter = { builds: 0 };
    const engine = createGraphEngine({ registry: noopRegistry(counter), clock });
    const components = machineConfig();
    globalThis.gc?.();
    const start = performance.now();
    const result = await engine.apply({ components });
    const elapsed = performance.now() - start;
    if (result.outcome !== "applied" || counter.builds !== LEVELS * WIDTH || result.plan.build.length !== LEVELS) {
      throw new Error(`start-up built ${counter.builds} resources in ${result.outcome === "applied" ? result.plan.build.length : 0} levels`);
    }
    if (run > 0) times.push(elapsed);
    await engine.close();
  }
  return median(times);
}

async function oneLeaf(): Promise<{ ms: number; rebuilt: number }> {
  const counter = { builds: 0 };
  const engine = createGraphEngine({ registry: noopRegistry(counter), clock });
  await engine.apply({ components: machineConfig() });
  const times: number[] = [];
  let rebuilt = 0;
  for (let run = 1; run <= 60; run++) {
    // A freshly parsed file: new objects throughout, so nothing is recognised by identity.
    const components = machineConfig(run);
    const before = counter.builds;
    const start = performance.now();
    await engine.apply({ components });
    const elapsed = performance.now() - start;
    // The first runs warm the code up; the figure is the median of the rest.
    if (run > 10) times.push(elapsed);
    rebuilt = Math.max(rebuilt, counter.builds - before);
  }
  await engine.close();
  return { ms: median(times), rebuilt };
}

function planRequests(): { startUp: PlanRequest; leaf: PlanRequest } {
  const entries = (value: number) => machineConfig(value).map((config) => ({ config }));
  return { startUp: { to: entries(0) }, leaf: { from: entries(0), to: entries(1) } };
}

async function inXs(): Promise<void> {
  const requests = planRequests();
  let nodeStart = 0;
  for (let i = 0; i < 5; i++) {
    const t = performance.now();
    planReconfigure(requests.startUp);
    nodeStart = i === 0 ? performance.now() - t : Math.min(nodeStart, performance.now() - t);
  }
  report("graph: plan 10,000 resources in 100 levels, Node", nodeStart, "ms");
  const xs = await CoreInXs.start();
  try {
    for (const [label, request] of [
      ["plan 10,000 resources in 100 levels", requests.startUp],
      ["plan one leaf changed among 10,000", requests.leaf],
    ] as const) {
      await xs.callRaw("planReconfigure", request);
      const start = performance.now();
      const { json, meters } = await xs.callRaw("planReconfigure", request);
      const elapsed = performance.now() - start;
      if (json !== JSON.stringify(planReconfigure(request))) throw new Error(`XS planned differently: ${label}`);
      report(`graph: ${label}, XS (call, JSON both ways included)`, elapsed, "ms");
      report(`graph: ${label}, XS compute meter`, meters.compute, "steps");
    }
  } finally {
    await xs.close();
  }
}

const start = await startUp();
report("graph: plan + build 10,000 no-op resources in 100 levels, Node", start, "ms", "under 200 ms");
const leaf = await oneLeaf();
report("graph: reconfigure one leaf among 10,000, Node", leaf.ms, "ms", "under 5 ms");
report("graph: resources rebuilt by that reconfiguration", leaf.rebuilt, "resources", "exactly 1");
await inXs();
