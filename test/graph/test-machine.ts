// One helper that builds a machine for graph tests: a registry with a recording model for a few
// APIs, an engine on a fake clock, and a journal of everything the models saw. The model checks
// the engine's promises as they happen (dependencies READY when a build starts, dependents closed
// before their dependency, nothing closed twice) and records any breach in `violations`.
import type { MachineConfig, ResourceConfig } from "../../core/config/index.js";
import {
  createGraphEngine,
  type GraphConfig,
  type GraphEngine,
  type GraphEngineOptions,
  type GraphEvent,
} from "../../core/graph/index.js";
import { createModelRegistry, type BuildContext, type LoggerLike, type ModelRegistry, type Resource } from "../../core/resource/index.js";
import { createFakeClock, type FakeClock } from "./fake-clock.js";

export const TEST_MODEL = "rdk:builtin:test";
export const TEST_APIS = ["rdk:component:board", "rdk:component:motor", "rdk:component:sensor", "rdk:service:generic"];

export interface TestResource extends Resource {
  id: number;
  fullName: string;
  deps: Map<string, TestResource>;
  closed: boolean;
  users: Set<TestResource>;
  getReadings(): Promise<Record<string, unknown>>;
}

export interface Journal {
  builds: string[];
  closes: string[];
  live: Map<string, TestResource>;
  violations: string[];
  inFlight: number;
  maxInFlight: number;
  /** Per name: how many builds of it to fail before succeeding (read by the `failTimes` attribute). */
  failures: Map<string, number>;
  /** Readings the sensors return, by full name; a function may throw. */
  readings: Map<string, () => Record<string, unknown>>;
  /** Builds that never finish until released, by full name. */
  hanging: Map<string, Array<() => void>>;
}

export interface LogLine {
  level: "debug" | "info" | "warn" | "error";
  message: string;
  fields?: Record<string, unknown>;
}

export interface TestMachine {
  clock: FakeClock;
  registry: ModelRegistry;
  engine: GraphEngine;
  journal: Journal;
  logs: LogLine[];
  events: GraphEvent[];
  /** state (and error) per resource, sorted by name. */
  snapshot(): Record<string, string>;
}

export function cfg(api: string, name: string, extra: Partial<ResourceConfig> = {}): ResourceConfig {
  const full = api.indexOf(":") >= 0 ? api : `rdk:component:${api}`;
  return { name, api: full, model: TEST_MODEL, attributes: {}, depends_on: [], ...extra };
}

/** A parsed machine configuration goes to the engine as it is (checked by the compiler). */
export const asGraphConfig = (config: MachineConfig): GraphConfig => config;

export function machine(components: ResourceConfig[], extra: Omit<GraphConfig, "components"> = {}): GraphConfig {
  return { components, ...extra };
}

export function collectingLogger(logs: LogLine[]): LoggerLike {
  const at =
    (level: LogLine["level"]) =>
    (message: string, fields?: Record<string, unknown>): void => {
      logs.push(fields ? { level, message, fields } : { level, message });
    };
  return { debug: at("debug"), info: at("info"), warn: at("warn"), error: at("error") };
}

/** Attributes the test model understands: fail (message), failTimes (n), hang (true), closeHang, closeFail, yields (n). */
export function registerTestModel(registry: ModelRegistry, journal: Journal, engine: () => GraphEngine, api: string, model = TEST_MODEL): () => void {
  let nextId = 1;
  return registry.register({
    api,
    model,
    attributesSchema: { type: "object", properties: { fail: { type: "string" } } },
    validate(config, path) {
      const a = config.attributes;
      const issues = typeof a.invalid === "string" ? [{ path: `${path}.attributes.invalid`, message: a.invalid, severity: "error" as const }] : [];
      const requiredDependencies = typeof a.uses === "string" ? [a.uses] : [];
      const optionalDependencies = typeof a.mayUse === "string" ? [a.mayUse] : [];
      return { requiredDependencies, optionalDependencies, issues };
    },
    async build(ctx: BuildContext) {
      const full = `${ctx.config.api}/${ctx.config.name}`;
      journal.builds.push(full);
      journal.inFlight++;
      journal.maxInFlight = Math.max(journal.maxInFlight, journal.inFlight);
      try {
        const deps = new Map<string, TestResource>();
        for (const depName of ctx.dependencies.names()) {
          const dep = ctx.dependencies.get(depName) as TestResource;
          const state = engine().resourceStatus(depName)?.state;
          if (dep.closed || state !== "READY" || journal.live.get(depName) !== dep) {
            journal.violations.push(`${full} was built with ${depName} not READY (${state}, closed ${dep.closed})`);
          }
          deps.set(depName, dep);
        }
        for (const ref of ctx.config.depends_on) {
          if (ctx.dependencies.get(ref) === undefined) journal.violations.push(`${full} got no dependency for "${ref}"`);
        }
        const a = ctx.config.attributes;
        const yields = typeof a.yields === "number" ? a.yields : 2;
        for (let i = 0; i < yields; i++) await Promise.resolve();
        if (a.hang === true) await new Promise<void>((resolve) => journal.hanging.set(full, [...(journal.hanging.get(full) ?? []), resolve]));
        if (typeof a.fail === "string") throw new Error(a.fail);
        const left = journal.failures.get(full) ?? (typeof a.failTimes === "number" ? a.failTimes : 0);
        if (left > 0) {
          journal.failures.set(full, left - 1);
          throw new Error(`attempt failed (${left} left)`);
        }
        journal.failures.set(full, 0);
        const resource: TestResource = {
          name: ctx.name,
          id: nextId++,
          fullName: full,
          deps,
          closed: false,
          users: new Set(),
          async doCommand(command) {
            return command;
          },
          async getReadings() {
            const read = journal.readings.get(full);
            return read ? read() : {};
          },
          async close() {
            if (resource.closed) journal.violations.push(`${full} closed twice`);
            for (const user of resource.users) {
              if (!user.closed) journal.violations.push(`${full} closed before its dependent ${user.fullName}`);
            }
            resource.closed = true;
            journal.closes.push(full);
            if (journal.live.get(full) === resource) journal.live.delete(full);
            if (a.closeFail === true) throw new Error("close failed");
            if (a.closeHang === true) await new Promise(() => undefined);
          },
        };
        if (!ctx.cancelled()) {
          for (const dep of deps.values()) dep.users.add(resource);
          journal.live.set(full, resource);
        }
        return resource;
      } finally {
        journal.inFlight--;
      }
    },
  });
}

export function createJournal(): Journal {
  return {
    builds: [],
    closes: [],
    live: new Map(),
    violations: [],
    inFlight: 0,
    maxInFlight: 0,
    failures: new Map(),
    readings: new Map(),
    hanging: new Map(),
  };
}

export function createTestMachine(options: Partial<GraphEngineOptions> = {}): TestMachine {
  const clock = createFakeClock();
  const registry = options.registry ?? createModelRegistry();
  const journal = createJournal();
  const logs: LogLine[] = [];
  const events: GraphEvent[] = [];
  const engine = createGraphEngine({ clock, logger: collectingLogger(logs), ...options, registry });
  engine.onEvent((e) => events.push(e));
  for (const api of TEST_APIS) registerTestModel(registry, journal, () => engine, api);
  return {
    clock,
    registry,
    engine,
    journal,
    logs,
    events,
    snapshot() {
      const out: Record<string, string> = {};
      const list = engine.status().resources.slice().sort((a, b) => (a.name < b.name ? -1 : 1));
      for (const s of list) out[s.name] = s.error === undefined ? s.state : `${s.state}: ${s.error}`;
      return out;
    },
  };
}
