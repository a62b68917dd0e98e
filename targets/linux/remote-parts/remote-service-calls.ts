// Calls to services svc-server has no description of, for resources of its remote parts: a remote
// viam-server's arm (viam.component.arm.v1.ArmService) when svc serves no arms, a modular API a
// remote's module serves. Each remote says which service serves each API it lists
// (ResourceRPCSubtypes, remote-services.ts); a call to one is passed to the part whose resource
// its request names (field 1, as every resource API's request does), renamed on the way when the
// part knows the resource by another name, as bytes, with the part's credentials and the call's
// deadline and cancellation. The port's checks and interceptors have run before (node/rpc/
// foreign-methods.ts). A request that names no resource, or one the service's API has not here,
// is refused saying so; a part that cannot be reached fails the call UNAVAILABLE.
import type { HandlerContext } from "@connectrpc/connect";
import { Code, SvcError, type ResourceLookup } from "../../../core/index.js";
import type { ForeignServices } from "../../../node/rpc/foreign-methods.js";
import { nameField, nameServedUnder, peerServing, renamed, requestName } from "../remote/index.js";
import type { RemoteParts } from "./remote-parts.js";

export function remoteServiceCalls(parts: Pick<RemoteParts, "apiOfService">, lookup: ResourceLookup): ForeignServices {
  return {
    serves: (service) => parts.apiOfService(service) !== undefined,
    async call(path: string, message: Uint8Array, context: HandlerContext) {
      const service = path.slice(1, path.lastIndexOf("/"));
      const api = parts.apiOfService(service);
      if (api === undefined) throw new SvcError(Code.Unimplemented, `no remote part serves ${service} any longer`);
      const name = requestName(message);
      if (name === undefined || name === "") throw new SvcError(Code.InvalidArgument, `the request to ${path} names no resource (field 1, "name")`);
      const resource = lookup.resource(api, name);
      const peer = peerServing(resource);
      if (peer === undefined) throw new SvcError(Code.Unimplemented, `${api}/${name} is not a remote part's resource; svc-server does not serve ${service} itself`);
      const servedAs = nameServedUnder(resource);
      const bytes = servedAs === undefined || servedAs === name ? message : renamed(message, nameField(servedAs));
      return peer.rawUnary({ path, message: bytes, cancel: context.signal, timeoutMs: context.timeoutMs() });
    },
  };
}
