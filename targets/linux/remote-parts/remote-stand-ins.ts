// The local stand-ins of remote parts' resources, built and closed by the graph like any
// resource: one model (REMOTE_RESOURCE_MODEL) is registered for each API a remote lists. A
// stand-in of an API svc-server has a client for is typed (a sensor whose getReadings calls the
// remote), so local resources can use it as a dependency; any other is bare, and its unary calls
// pass through to the remote as bytes all the same (module forwarding, under the name the remote
// knows it by). Building one needs its remote connected: otherwise the graph holds it back.
import { Code, formatApi, SvcError, type ModelRegistry, type Resource, type ResourceName } from "../../../core/index.js";
import { createRemoteResource, isRemoteApi, markServedBy } from "../remote/index.js";
import type { RemotePart } from "./remote-part.js";

/** The model every stand-in of a remote's resource is built by. */
export const REMOTE_RESOURCE_MODEL = "svc:remote:resource";

export interface RemoteStandIns {
  /** Registers the model for `api`, once. */
  serve(api: string): void;
  /** Takes the registrations out again. */
  close(): void;
}

/** `partOf` finds the part a resource comes from, by the remote's name (its name's first part). */
export function createRemoteStandIns(registry: ModelRegistry, partOf: (remote: string) => RemotePart | undefined): RemoteStandIns {
  const registrations = new Map<string, () => void>();

  function build(name: ResourceName): Resource {
    const remote = name.name.slice(0, name.name.indexOf(":"));
    const part = partOf(remote);
    if (part === undefined) throw new SvcError(Code.NotFound, `remote ${remote} is not configured`);
    if (part.phase !== "connected") throw new SvcError(Code.Unavailable, `remote ${remote} is unavailable: ${part.reason ?? part.phase}`);
    const there = part.remoteNameOf(name.name);
    if (there === undefined) throw new SvcError(Code.NotFound, `remote ${remote} no longer lists ${formatApi(name)}/${name.name}`);
    const standIn: Resource = isRemoteApi(formatApi(name)) ? createRemoteResource(name, part.transport) : { name, close: async () => {} };
    markServedBy(standIn, part, there);
    return standIn;
  }

  return {
    serve(api) {
      if (registrations.has(api)) return;
      registrations.set(api, registry.register({ api, model: REMOTE_RESOURCE_MODEL, build: async (context) => build(context.name) }));
    },
    close() {
      for (const unregister of registrations.values()) unregister();
      registrations.clear();
    },
  };
}
