// What every remote resource shares, whatever its API: the name its requests carry, one way to
// run a call (errors become RemoteCallError), DoCommand and GetReadings, and a close() that
// only stops this side from calling.
import type { JsonObject } from "@bufbuild/protobuf";
import type { Value } from "@bufbuild/protobuf/wkt";
import { Code, formatResourceName, type CommandPayload, type ResourceName } from "../../../core/index.js";
import { RemoteCallError, toRemoteCallError } from "./remote-call-error.js";
import { fromWireValueMap, toWireStruct } from "./wire-values.js";

export interface RemoteCaller {
  readonly name: ResourceName;
  /** `rdk:component:motor/left`, for messages. */
  readonly fullName: string;
  /** The simple name every request carries, as the serving handlers expect. */
  readonly target: string;
  /** Runs one RPC; whatever it throws leaves as the remote resource's error. */
  call<T>(rpc: string, send: () => Promise<T>): Promise<T>;
  /** `extra` as the wire's Struct. */
  extra(extra: CommandPayload | undefined): JsonObject | undefined;
  /**
   * Refuses every later call. Nothing is released on the peer: the resource keeps running
   * there until whoever placed it removes it (the module manager, through the module protocol).
   */
  close(): Promise<void>;
}

export function createRemoteCaller(name: ResourceName): RemoteCaller {
  const fullName = formatResourceName(name);
  let closed = false;
  return {
    name,
    fullName,
    target: name.name,
    async call(rpc, send) {
      if (closed) throw new RemoteCallError(Code.Unavailable, `${fullName} has been closed`, fullName, rpc, false);
      try {
        return await send();
      } catch (thrown) {
        throw toRemoteCallError(thrown, fullName, rpc);
      }
    },
    extra: (extra) => toWireStruct(extra, "extra"),
    async close() {
      closed = true;
    },
  };
}

/** The DoCommand method every generated service client has. */
interface DoCommandClient {
  doCommand(request: { name: string; command?: JsonObject }): Promise<{ result?: JsonObject }>;
}

/** The API's doCommand over the service's DoCommand. */
export function remoteDoCommand(caller: RemoteCaller, client: DoCommandClient): (command: CommandPayload) => Promise<CommandPayload> {
  return (command) =>
    caller.call("DoCommand", async () => {
      const answer = await client.doCommand({ name: caller.target, command: toWireStruct(command ?? {}, "command") });
      return (answer.result ?? {}) as CommandPayload;
    });
}

/** The GetReadings method of the sensor-like service clients. */
interface ReadingsClient {
  getReadings(request: { name: string; extra?: JsonObject }): Promise<{ readings: { [key: string]: Value } }>;
}

/** The API's getReadings over the service's GetReadings; each reading back as the plain value it was. */
export function remoteGetReadings(
  caller: RemoteCaller,
  client: ReadingsClient,
): (extra?: CommandPayload) => Promise<Record<string, unknown>> {
  return (extra) =>
    caller.call("GetReadings", async () => fromWireValueMap((await client.getReadings({ name: caller.target, extra: caller.extra(extra) })).readings));
}
