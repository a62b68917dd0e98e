// A resource served by another process (a module, or svc-server for a module's dependencies),
// made to look like a built-in one: an object implementing its API's interface whose methods
// call the API's gRPC service over a connect transport. The API is chosen by the name's triplet.
// Every request names the resource by its simple name; errors keep the peer's gRPC code and
// message (RemoteCallError), a peer that cannot be reached is UNAVAILABLE.
//
// close() releases nothing on the peer: the resource keeps running there until whoever placed
// it removes it by other means (the module manager, through the module protocol). It only makes
// this object refuse later calls. The transport belongs to the caller too: one transport serves
// every resource of a peer and is closed by its owner.
import type { Transport } from "@connectrpc/connect";
import { Code, formatApi, formatResourceName, SvcError, type Resource, type ResourceName } from "../../../core/index.js";
import { linuxServedApis, type RemoteFactory } from "./linux-api-table.js";

// By API triplet, from the table of served APIs.
const factories: ReadonlyMap<string, RemoteFactory> = new Map(
  linuxServedApis.flatMap(({ row, remote }) => (remote === undefined ? [] : [[row.api, remote] as const])),
);

/** The APIs a remote resource can stand for (the ones svc serves), as `namespace:type:subtype`. */
export const REMOTE_APIS: readonly string[] = Object.freeze(Array.from(factories.keys()));

export function isRemoteApi(api: string): boolean {
  return factories.has(api);
}

/**
 * The resource `name` served at the other end of `transport`, implementing its API's interface
 * (Sensor, Board, Motor, ...). Throws UNIMPLEMENTED for an API svc does not serve, since there
 * is no service to call for it.
 */
export function createRemoteResource(name: ResourceName, transport: Transport): Resource {
  const api = formatApi(name);
  const factory = factories.get(api);
  if (factory === undefined) {
    throw new SvcError(
      Code.Unimplemented,
      `${formatResourceName(name)}: API ${api} has no remote client; remote resources can be ${REMOTE_APIS.join(", ")}`,
    );
  }
  return factory(name, transport);
}
