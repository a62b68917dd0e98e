// The remote parts of a running machine, following the configuration in force: a remote added is
// dialled, one changed is dialled afresh, one removed is let go (reachable or not). What each
// lists is joined to the graph (engine.join) as it changes: reachable, its resources are built as
// stand-ins (remote-stand-ins.ts) and local resources may depend on them; unreachable, they stay
// joined, held with the reason, and their dependents wait saying so; back, they are built again
// and the dependents follow, nothing done on this part. Each remote is also a status of its own
// for GetMachineStatus (`rdk:remote:/<name>`), naming what it leaves out and whose names collide.
import {
  type Clock,
  type ConfigListener,
  type GraphEngine,
  type JoinedResource,
  type LoggerLike,
  type MachineConfig,
  type ModelRegistry,
  type RemoteConfig,
  type ResourceConfig,
  type ResourceState,
  type ResourceStatus,
} from "../../../core/index.js";
import { findCollisions } from "./remote-collisions.js";
import type { ListedResource } from "./remote-listing.js";
import { createRemotePart, type PartPhase, type RemotePart } from "./remote-part.js";
import { createRemoteStandIns, REMOTE_RESOURCE_MODEL, type RemoteStandIns } from "./remote-stand-ins.js";
import type { CloudDialer } from "./webrtc-session.js";

/** The API of a remote's own status in GetMachineStatus, as Viam names a remote. */
export const REMOTE_STATUS_API = "rdk:remote:";

export interface RemotePartsOptions {
  readonly engine: GraphEngine;
  readonly registry: ModelRegistry;
  readonly clock: Clock;
  readonly logger: LoggerLike;
  /** Numbers in [0, 1) for the reconnect jitter; Math.random by default. */
  readonly random?: () => number;
  /** How long signing in or one listing may take; remote-part.ts's default when absent. */
  readonly callTimeoutMs?: number;
  /** The dialer over WebRTC through svc-cloud while this machine follows svc-cloud: a remote the direct way cannot reach is dialled with it. */
  readonly throughCloud?: () => CloudDialer | undefined;
}

export interface RemoteParts {
  /** Brings the remotes in line with `config`. */
  update(config: MachineConfig): void;
  /** Each remote's own status, for GetMachineStatus. */
  statuses(): ResourceStatus[];
  /** The API a remote says `service` (`viam.component.arm.v1.ArmService`) serves, the first remote's that says so. */
  apiOfService(service: string): string | undefined;
  /** The protobuf service a remote says serves `api`. */
  serviceOfApi(api: string): string | undefined;
  /** Lets every remote go. */
  close(): void;
}

/** What the parts hold between changes. */
interface PartsState {
  /** In the configuration's order. */
  parts: Map<string, RemotePart>;
  /** The configured components and services, whose names a remote's must not take. */
  configured: readonly ResourceConfig[];
  /** Per remote: its collisions, in words. */
  collisions: Map<string, string[]>;
  /** Per remote: what was last joined, so the same is not joined twice. */
  joined: Map<string, string>;
  /** Per remote: what was last said of what it leaves out and of its collisions. */
  said: Map<string, string>;
  /** One entry per listed resource, kept while it is listed, so an unchanged entry stays the same object. */
  entries: Map<string, ResourceConfig>;
  closed: boolean;
}

export function createRemoteParts(options: RemotePartsOptions): RemoteParts {
  const state: PartsState = { parts: new Map(), configured: [], collisions: new Map(), joined: new Map(), said: new Map(), entries: new Map(), closed: false };
  const standIns = createRemoteStandIns(options.registry, (remote) => state.parts.get(remote));
  const refresh = () => {
    if (!state.closed) joinAll(options, state, standIns);
  };

  return {
    update(config) {
      if (state.closed) return;
      state.configured = [...config.components, ...config.services];
      follow(options, state, config.remotes, refresh);
      refresh();
    },
    statuses: () => Array.from(state.parts.values(), (part) => statusOf(part, state)),
    apiOfService(service) {
      for (const part of state.parts.values()) {
        const api = part.listing.services.get(service);
        if (api !== undefined) return api;
      }
      return undefined;
    },
    serviceOfApi(api) {
      for (const part of state.parts.values()) for (const [service, its] of part.listing.services) if (its === api) return service;
      return undefined;
    },
    close() {
      state.closed = true;
      for (const part of state.parts.values()) part.close();
      state.parts.clear();
      standIns.close();
    },
  };
}

/** A listener for a machine's config events that keeps `parts` in line with the configuration in force. */
export function followConfigRemotes(parts: RemoteParts): ConfigListener {
  return (event) => {
    if ((event.kind === "accepted" || event.kind === "restored") && event.running) parts.update(event.running.config);
  };
}

const keyOf = (remote: string) => `remotes.${remote}`;

/** Starts the remotes that are new or changed, lets go of the ones gone or changed, in the configuration's order. */
function follow(options: RemotePartsOptions, state: PartsState, remotes: readonly RemoteConfig[], refresh: () => void): void {
  const wanted = new Map(remotes.map((r) => [r.name, r]));
  for (const [name, part] of state.parts) {
    const next = wanted.get(name);
    if (next !== undefined && sameRemote(part.config, next)) continue;
    part.close();
    state.parts.delete(name);
    state.joined.delete(name);
    state.said.delete(name);
    options.engine.join(keyOf(name), []);
    options.logger.info(next === undefined ? `remote ${name} removed` : `remote ${name} changed; dialling it afresh`, { remote: name });
  }
  const ordered = new Map<string, RemotePart>();
  for (const config of remotes) {
    const { clock, logger, random, callTimeoutMs, throughCloud } = options;
    const part = state.parts.get(config.name) ?? createRemotePart({ config, clock, logger, random, callTimeoutMs, throughCloud, onChange: refresh });
    ordered.set(config.name, part);
  }
  state.parts = ordered;
}

/** Joins what each remote lists, as it is now, and says what changed in what they leave out or collide on. */
function joinAll(options: RemotePartsOptions, state: PartsState, standIns: RemoteStandIns): void {
  const listings = Array.from(state.parts.values(), (part) => ({ remote: part.config.name, resources: part.listing.resources }));
  state.collisions = findCollisions(state.configured, listings);
  keepEntries(state, listings);
  for (const part of state.parts.values()) {
    join(options, state, standIns, part);
    say(options, state, part);
  }
}

function join(options: RemotePartsOptions, state: PartsState, standIns: RemoteStandIns, part: RemotePart): void {
  const name = part.config.name;
  const unavailable = part.phase === "connected" ? undefined : `remote ${name} is unavailable: ${part.reason ?? "it is not connected yet"}`;
  const resources = part.listing.resources;
  const signature = `${unavailable ?? ""}\u0000${resources.map((r) => `${r.api}/${r.name}`).join("\n")}`;
  if (state.joined.get(name) === signature) return;
  state.joined.set(name, signature);
  for (const r of resources) standIns.serve(r.api);
  const joined = resources.map((r): JoinedResource => {
    const config = state.entries.get(keyOfResource(r))!;
    return unavailable === undefined ? { config } : { config, unavailable };
  });
  options.engine.join(keyOf(name), joined);
}

const keyOfResource = (r: ListedResource) => `${r.api}/${r.name}`;

function keepEntries(state: PartsState, listings: ReadonlyArray<{ resources: readonly ListedResource[] }>): void {
  const kept = new Map<string, ResourceConfig>();
  for (const { resources } of listings) {
    for (const r of resources) {
      const key = keyOfResource(r);
      kept.set(key, state.entries.get(key) ?? { name: r.name, api: r.api, model: REMOTE_RESOURCE_MODEL, attributes: {}, depends_on: [] });
    }
  }
  state.entries = kept;
}

/** What a remote leaves out and whose names collide, said once each time it changes. */
function say(options: RemotePartsOptions, state: PartsState, part: RemotePart): void {
  const name = part.config.name;
  const notes = notesOf(part, state);
  const text = notes.join("\n");
  if (state.said.get(name) === text) return;
  state.said.set(name, text);
  for (const note of notes) options.logger.warn(`remote ${name}: ${note}`, { remote: name });
}

function notesOf(part: RemotePart, state: PartsState): string[] {
  return [...part.listing.leftOut, ...(state.collisions.get(part.config.name) ?? [])];
}

const states: Record<PartPhase, ResourceState> = { connecting: "CONFIGURING", connected: "READY", unreachable: "UNHEALTHY", closed: "REMOVING" };

/** The most collisions a status names one by one. */
const SHOWN_NOTES = 5;

function statusOf(part: RemotePart, state: PartsState): ResourceStatus {
  const status: ResourceStatus = { name: `${REMOTE_STATUS_API}/${part.config.name}`, state: states[part.phase], revision: "", changedAt: part.changedAt };
  const notes = notesOf(part, state);
  const shown = notes.length > SHOWN_NOTES ? [...notes.slice(0, SHOWN_NOTES), `and ${notes.length - SHOWN_NOTES} more`] : notes;
  const why = part.phase === "unreachable" ? [`unavailable: ${part.reason}`] : [];
  if (why.length + shown.length > 0) status.error = [...why, ...shown].join("; ");
  return status;
}

function sameRemote(a: RemoteConfig, b: RemoteConfig): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}
