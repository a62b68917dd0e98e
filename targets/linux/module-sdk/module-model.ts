// What a module author writes for each model: its API and model triplets, an optional validator
// (dependencies it needs; throwing refuses the configuration) and a constructor, and optionally
// `reconfigure` to take new attributes without being rebuilt.
import type { ResourceConfig, Resource, ResourceName } from "../../../core/index.js";
import type { ModuleLogger } from "./module-logger.js";

export interface ModuleDependencies {
  /** A dependency by full name ("rdk:component:board/b") or simple name ("b"). */
  get<R extends Resource = Resource>(name: string): R | undefined;
  names(): string[];
}

export interface ModuleBuildContext {
  readonly name: ResourceName;
  readonly config: ResourceConfig;
  /** The resources it depends on, reached in svc-server through the parent socket. */
  readonly dependencies: ModuleDependencies;
  readonly logger: ModuleLogger;
}

export interface ModuleValidationResult {
  /** Resources it cannot run without, full or simple names. */
  dependencies?: string[];
  optionalDependencies?: string[];
}

export interface ModuleModel<R extends Resource = Resource> {
  /** e.g. "rdk:component:sensor" (use the API constants). */
  api: string;
  /** e.g. "acme:demo:counter". */
  model: string;
  validate?(config: ResourceConfig): ModuleValidationResult | void | Promise<ModuleValidationResult | void>;
  build(context: ModuleBuildContext): Promise<R>;
  reconfigure?(resource: R, context: ModuleBuildContext): Promise<void>;
}
