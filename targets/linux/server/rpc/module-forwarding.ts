// A unary call for a resource a module serves passes through svc-server as bytes: the request as
// the client wrote it goes to the module, the module's answer goes back as the module wrote it.
// A remote part's resource passes the same way, renamed on the way when the remote knows it by
// another name than the caller used (request-name.ts).
// Auth, the session, the operation and the call's deadline and cancellation are svc-server's as
// for any call (the interceptors run as ever); what is skipped is decoding the answer, making
// the resource's TypeScript objects, and encoding both again. A method the protos mark as
// safety-monitored ties the actuator to the caller's session, as the built-in handlers do, so a
// session that ends stops a module's motor too. Calls that name the resource by its full name,
// and resources served here, take the ordinary way.
import { getOption, type DescMethodUnary, type DescService } from "@bufbuild/protobuf";
import { formatResourceName, type Resource, type ResourceLookup } from "../../../../core/index.js";
import { safety_heartbeat_monitored } from "../../../../proto/gen/common/v1/common_pb.js";
import { nameField, nameServedUnder, namesResourceFirst, peerServing, renamed, type RawPeer } from "../../remote/index.js";
import { callControlKey } from "../transport/index.js";
import { SESSION_HEADER, type ConnectCallOptions } from "./connect-call.js";
import type { Forward, ForwardOf } from "../../../../node/rpc/forwarded-response.js";

export type { Forward, ForwardOf };

export interface ModuleForwardingOptions {
  readonly lookup: ResourceLookup;
  /** The API of each served resource service, by the service's full name. */
  readonly apis: ReadonlyArray<{ readonly api: string; readonly service: string }>;
  /** Told about an actuator a safety-monitored call drives (as ConnectCallOptions). */
  readonly onActuatorDriven?: ConnectCallOptions["onActuatorDriven"];
}

export function createModuleForwarding(options: ModuleForwardingOptions): ForwardOf {
  const apiOf = new Map(options.apis.map(({ api, service }) => [service, api]));
  const monitored = new Map<DescMethodUnary, boolean>();
  const made = new WeakMap<Resource, Map<DescMethodUnary, Ways | undefined>>();
  const isMonitored = (method: DescMethodUnary) => {
    let answer = monitored.get(method);
    if (answer === undefined) monitored.set(method, (answer = getOption(method, safety_heartbeat_monitored)));
    return answer;
  };

  return (service, method, request) => {
    const api = apiOf.get(service.typeName);
    const name = (request as { name?: unknown }).name;
    if (api === undefined || typeof name !== "string" || name === "" || name.includes("/")) return undefined;
    let resource: Resource;
    try {
      resource = options.lookup.resource(api, name);
    } catch {
      // The ordinary way says why (not found, not ready).
      return undefined;
    }
    const ways = waysFor(resource, service, method);
    if (ways === undefined) return undefined;
    return ways.servedAs === undefined || ways.servedAs === name ? ways.asIs : ways.renamed;
  };

  // The ways through per resource and method, made on its first call: a resource object is
  // replaced when it is reconfigured, and its entry goes with it.
  function waysFor(resource: Resource, service: DescService, method: DescMethodUnary): Ways | undefined {
    let byMethod = made.get(resource);
    if (byMethod === undefined) made.set(resource, (byMethod = new Map()));
    if (byMethod.has(method)) return byMethod.get(method);
    const peer = peerServing(resource);
    let ways: Ways | undefined;
    if (peer) {
      const path = `/${service.typeName}/${method.name}`;
      const servedAs = nameServedUnder(resource);
      const asIs = makeForward(resource, peer, path, isMonitored(method));
      const field = servedAs !== undefined && namesResourceFirst(method) ? nameField(servedAs) : undefined;
      ways = { asIs, servedAs, renamed: field && ((message, context) => asIs(renamed(message, field), context)) };
    }
    byMethod.set(method, ways);
    return ways;
  }

  function makeForward(resource: Resource, peer: RawPeer, path: string, drives: boolean): Forward {
    return (message, context) => {
      if (drives) {
        const sessionId = context.requestHeader.get(SESSION_HEADER) ?? "";
        options.onActuatorDriven?.(sessionId, formatResourceName(resource.name), resource as Resource & { stop(): Promise<void> });
      }
      // The call's own control where the port made one: no signal needs making for this call.
      const cancel = context.values.get(callControlKey) ?? context.signal;
      return peer.rawUnary({ path, message, cancel, timeoutMs: context.timeoutMs() });
    };
  }
}

/** How a call passes through: as written, or renamed for a peer that knows the resource by another name. */
interface Ways {
  readonly asIs: Forward;
  /** The name the peer knows the resource by, when not the one it is called by here. */
  readonly servedAs: string | undefined;
  /** Undefined when the method's request does not name its resource first: it takes the ordinary way. */
  readonly renamed: Forward | undefined;
}
