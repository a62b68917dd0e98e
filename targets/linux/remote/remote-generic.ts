// A generic component or generic service served elsewhere: DoCommand is the whole API, through
// viam.component.generic.v1.GenericService or viam.service.generic.v1.GenericService.
import { createClient, type Transport } from "@connectrpc/connect";
import type { GenericComponent, GenericService, ResourceName } from "../../../core/index.js";
import { GenericService as GenericComponentService } from "../../../proto/gen/component/generic/v1/generic_pb.js";
import { GenericService as GenericServiceService } from "../../../proto/gen/service/generic/v1/generic_pb.js";
import { createRemoteCaller, remoteDoCommand } from "./remote-caller.js";

export function createRemoteGenericComponent(name: ResourceName, transport: Transport): GenericComponent {
  const caller = createRemoteCaller(name);
  return { name, doCommand: remoteDoCommand(caller, createClient(GenericComponentService, transport)), close: caller.close };
}

export function createRemoteGenericService(name: ResourceName, transport: Transport): GenericService {
  const caller = createRemoteCaller(name);
  return { name, doCommand: remoteDoCommand(caller, createClient(GenericServiceService, transport)), close: caller.close };
}
