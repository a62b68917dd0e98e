// The states a resource and the machine go through, as GetMachineStatus reports them.

/**
 * UNCONFIGURED: not built yet; with an error, waiting for something outside itself (a dependency,
 * a model). CONFIGURING: being built. READY: running. REMOVING: being closed. UNHEALTHY: its own
 * build or configuration failed; the error says why.
 */
export type ResourceState = "UNCONFIGURED" | "CONFIGURING" | "READY" | "REMOVING" | "UNHEALTHY";

/** INITIALIZING until the first full configuration has been applied, RUNNING afterwards. */
export type MachineState = "INITIALIZING" | "RUNNING";

export interface ResourceStatus {
  /** Full name, `rdk:component:motor/left`. */
  name: string;
  state: ResourceState;
  /** The last error, when the resource is not READY because of one. */
  error?: string;
  /** Revision of the configuration that last added or changed this resource's entry. */
  revision: string;
  /** Clock time (ms) of the last change of state or error. */
  changedAt: number;
}

/** Why a resource cannot be built as configured now (decided while planning, not while running). */
export interface Hold {
  state: "UNCONFIGURED" | "UNHEALTHY";
  error: string;
  /** False when the resource only waits for a dependency that is itself held. */
  root: boolean;
}
