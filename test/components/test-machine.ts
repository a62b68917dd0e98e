// One helper that builds a machine for component tests: a real registry with every built-in
// model, a simulated board behind the fake boards and the sensors (or the IO a test gives, such
// as a Linux host's), a manual clock, and builds that go through each model's validator first,
// each entry seeing those built before it by name.
import type { ResourceConfig } from "../../core/config/index.js";
import type { IOProvider } from "../../hal/io.js";
import { registerBuiltinModels } from "../../core/components/index.js";
import { createManualClock, type ManualClock } from "../../core/index.js";
import {
  createModelRegistry,
  parseApi,
  validateResourceConfig,
  type LoggerLike,
  type ModelRegistration,
  type ModelRegistry,
  type Resource,
  type ResourceValidation,
} from "../../core/resource/index.js";
import { createSimBoard, type SimBoard, type SimBoardDescription } from "../../hal/sim/index.js";

export interface LogLine {
  level: string;
  message: string;
}

export interface TestMachine {
  clock: ManualClock;
  sim: SimBoard;
  registry: ModelRegistry;
  logs: LogLine[];
  /** Validates, then builds; throws the validator's issues or the build's error. */
  build<R extends Resource>(config: ResourceConfig): Promise<R>;
  validate(config: ResourceConfig, path?: string): ResourceValidation;
  /** Closes everything built, newest first (dependents before what they depend on). */
  closeAll(): Promise<void>;
}

const apiOf = (kind: string) => (kind.indexOf(":") >= 0 ? kind : kind === "generic_service" ? "rdk:service:generic" : `rdk:component:${kind}`);

/** A configuration entry: `entry("motor", "m1", { max_rpm: 60 })`, fake model unless given. */
export function entry(kind: string, name: string, attributes: Record<string, unknown> = {}, model = "rdk:builtin:fake"): ResourceConfig {
  return { name, api: apiOf(kind), model, attributes, depends_on: [] };
}

export interface TestMachineOptions {
  /** The IO boards and sensors get instead of the simulated board's. */
  io?: IOProvider;
  /** Models registered beside the built-in ones (a host's boards). */
  models?: ModelRegistration[];
}

export function createTestMachine(description: SimBoardDescription = {}, options: TestMachineOptions = {}): TestMachine {
  const clock = createManualClock(1_000);
  const sim = createSimBoard(description);
  const registry = createModelRegistry();
  const io = options.io ?? sim.io;
  registerBuiltinModels(registry, { ioForBoard: () => io });
  for (const model of options.models ?? []) registry.register(model);
  const logs: LogLine[] = [];
  const at = (level: string) => (message: string) => void logs.push({ level, message });
  const logger: LoggerLike = { debug: at("debug"), info: at("info"), warn: at("warn"), error: at("error") };
  const built: Array<{ name: string; resource: Resource }> = [];

  const validate = (config: ResourceConfig, path = "components[0]") => validateResourceConfig(registry, config, path);

  return {
    clock,
    sim,
    registry,
    logs,
    validate,
    async build<R extends Resource>(config: ResourceConfig): Promise<R> {
      const checked = validate(config);
      if (!checked.modelKnown) throw new Error(`no model ${config.model} for ${config.api}`);
      if (checked.issues.length) throw new Error(checked.issues.map((i) => `${i.path}: ${i.message}`).join("; "));
      const api = parseApi(config.api);
      if (!api.ok) throw new Error(api.error);
      const registration = registry.lookup(config.api, config.model)!;
      const resource = await registration.build({
        name: { ...api.value, name: config.name },
        config,
        dependencies: {
          get: (name) => built.find((b) => b.name === name)?.resource,
          names: () => checked.requires.slice(),
        },
        logger,
        clock,
        cancelled: () => false,
      });
      built.push({ name: config.name, resource });
      return resource as R;
    },
    async closeAll() {
      for (const b of built.splice(0).reverse()) await b.resource.close();
    },
  };
}

/** Lets pending promise callbacks and simulated edges run. */
export const tick = () => new Promise<void>((resolve) => setTimeout(resolve, 0));
