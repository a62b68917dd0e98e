// The registry of models per API: for each (api, model) pair, how to validate a configuration
// entry and how to build the resource. Built-in models register at start-up; modules add and
// remove theirs while the machine runs, so the registry announces every change to listeners
// (the graph engine builds resources that were waiting for a model the moment it appears).
import type { Clock } from "../clock.js";
import type { ConfigIssue, ResourceConfig } from "../config/index.js";
import { Code, SvcError } from "../errors/index.js";
import type { LoggerLike, Resource } from "./resource.js";
import { parseApi, parseModel, type ResourceName } from "./resource-name.js";

/** What a validator finds in an entry's attributes. */
export interface ModelValidation {
  /** Resources this one cannot run without (a motor naming its board), full or simple names. */
  requiredDependencies?: string[];
  /** Resources used when present; the resource is built without them otherwise. */
  optionalDependencies?: string[];
  /** Problems with their paths, e.g. `components[2].attributes.pin`. */
  issues?: ConfigIssue[];
}

/** The dependencies of a resource being built, by the name its configuration used or by full name. */
export interface ResourceDependencies {
  /** A dependency by full name or simple name; undefined for an optional one that is not running. */
  get(name: string): Resource | undefined;
  /** Full names of every dependency handed over. */
  names(): string[];
}

export interface BuildContext {
  readonly name: ResourceName;
  readonly config: ResourceConfig;
  readonly dependencies: ResourceDependencies;
  readonly logger: LoggerLike;
  readonly clock: Clock;
  /** True once the build has timed out or the machine is shutting down; a late result is closed. */
  cancelled(): boolean;
}

export interface ModelRegistration<R extends Resource = Resource> {
  /** `namespace:type:subtype` */
  api: string;
  /** `namespace:family:name` */
  model: string;
  build(context: BuildContext): Promise<R>;
  /**
   * Applies a changed configuration of the same model to the running instance, in place (its
   * dependents are rebuilt all the same). Optional; throwing means the instance is closed and
   * built afresh.
   */
  reconfigure?(resource: R, context: BuildContext): Promise<void>;
  /** Checks the entry; `path` is where the entry sits in the configuration (`components[2]`). */
  validate?(config: ResourceConfig, path: string): ModelValidation;
  /** JSON schema of `attributes`, published by `-dump-resources`. */
  attributesSchema?: Record<string, unknown>;
}

export interface RegisteredModel {
  api: string;
  model: string;
  attributesSchema?: Record<string, unknown>;
}

export interface RegistryChange {
  /** "explained": the reason a missing model is missing changed. */
  kind: "added" | "removed" | "explained";
  api: string;
  model: string;
}

export interface ModelRegistry {
  /** Adds a model; returns the function that removes it again. Throws on a bad or duplicate pair. */
  register(registration: ModelRegistration): () => void;
  unregister(api: string, model: string): boolean;
  lookup(api: string, model: string): ModelRegistration | undefined;
  /** Every registration, sorted by API then model. */
  list(): RegisteredModel[];
  /** Bumped on every change, so callers can keep results derived from the registry. */
  readonly generation: number;
  onChange(listener: (change: RegistryChange) => void): () => void;
  /**
   * Says why a model is not registered (the module that provides it is starting, restarting or
   * gone), or clears that with undefined; resources waiting for the model show it.
   */
  explainAbsence(api: string, model: string, reason: string | undefined): void;
  absence(api: string, model: string): string | undefined;
}

/** What the registry keeps. */
interface RegistryState {
  // API -> model -> registration: looked up once per build, so no key strings are made.
  readonly models: Map<string, Map<string, ModelRegistration>>;
  readonly listeners: Set<(change: RegistryChange) => void>;
  readonly absences: Map<string, string>;
  generation: number;
}

// The methods are thin: on a microcontroller each closure carries a copy of its code, so the
// work is in the module functions below, made once.
export function createModelRegistry(): ModelRegistry {
  const state: RegistryState = { models: new Map(), listeners: new Set(), absences: new Map(), generation: 0 };
  const registry: ModelRegistry = {
    get generation() {
      return state.generation;
    },
    register: (registration) => register(state, registry, registration),
    unregister: (api, model) => unregister(state, api, model),
    lookup: (api, model) => state.models.get(api)?.get(model),
    list: () => list(state),
    explainAbsence: (api, model, reason) => explainAbsence(state, api, model, reason),
    absence: (api, model) => state.absences.get(`${api}\u0000${model}`),
    onChange(listener) {
      state.listeners.add(listener);
      return () => {
        state.listeners.delete(listener);
      };
    },
  };
  return registry;
}

function announce(state: RegistryState, change: RegistryChange): void {
  state.generation++;
  for (const listener of Array.from(state.listeners)) listener(change);
}

function register(state: RegistryState, registry: ModelRegistry, registration: ModelRegistration): () => void {
  const api = parseApi(registration.api);
  if (!api.ok) throw new SvcError(Code.InvalidArgument, `cannot register model: ${api.error}`);
  const model = parseModel(registration.model);
  if (!model.ok) throw new SvcError(Code.InvalidArgument, `cannot register model: ${model.error}`);
  let ofApi = state.models.get(registration.api);
  if (ofApi?.has(registration.model)) {
    throw new SvcError(Code.AlreadyExists, `model ${registration.model} is already registered for API ${registration.api}`);
  }
  if (!ofApi) state.models.set(registration.api, (ofApi = new Map()));
  ofApi.set(registration.model, registration);
  announce(state, { kind: "added", api: registration.api, model: registration.model });
  return () => removeIfHeld(registry, registration);
}

/** Unregisters `registration` if it is still the one registered under its API and model. */
function removeIfHeld(registry: ModelRegistry, registration: ModelRegistration): void {
  if (registry.lookup(registration.api, registration.model) === registration) registry.unregister(registration.api, registration.model);
}

function unregister(state: RegistryState, api: string, model: string): boolean {
  const ofApi = state.models.get(api);
  if (!ofApi || !ofApi.delete(model)) return false;
  if (ofApi.size === 0) state.models.delete(api);
  announce(state, { kind: "removed", api, model });
  return true;
}

function list(state: RegistryState): RegisteredModel[] {
  const all: RegisteredModel[] = [];
  state.models.forEach((ofApi) =>
    ofApi.forEach((r) => {
      const entry: RegisteredModel = { api: r.api, model: r.model };
      if (r.attributesSchema !== undefined) entry.attributesSchema = r.attributesSchema;
      all.push(entry);
    }),
  );
  return all.sort((a, b) => (a.api !== b.api ? (a.api < b.api ? -1 : 1) : a.model < b.model ? -1 : a.model > b.model ? 1 : 0));
}

function explainAbsence(state: RegistryState, api: string, model: string, reason: string | undefined): void {
  const key = `${api}\u0000${model}`;
  if (state.absences.get(key) === reason) return;
  if (reason === undefined) state.absences.delete(key);
  else state.absences.set(key, reason);
  announce(state, { kind: "explained", api, model });
}
