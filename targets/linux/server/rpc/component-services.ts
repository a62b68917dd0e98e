// Every resource API svc-server serves, registered on a connect router over one resource
// lookup: the rows of the table of served APIs (core/rpc/api-table.ts) that name Linux, each
// its generated descriptor with its handlers (the core's, or Linux's own for the camera).
import type { ConnectRouter } from "@connectrpc/connect";
import type { ResourceLookup } from "../../../../core/index.js";
import { linuxServedApis } from "../../remote/index.js";
import type { ConnectCallOptions } from "./connect-call.js";
import { toConnectImpl } from "./connect-impl.js";

/** The API each registered service serves, with the service's full protobuf name (for ResourceRPCSubtypes). */
export const componentServiceApis: ReadonlyArray<{ readonly api: string; readonly service: string }> = Object.freeze(
  linuxServedApis.map(({ row, descriptor }) => ({ api: row.api, service: descriptor.typeName })),
);

export function registerComponentServices(router: ConnectRouter, lookup: ResourceLookup, options: ConnectCallOptions = {}): void {
  for (const { descriptor, handlers } of linuxServedApis) {
    router.service(descriptor, toConnectImpl(descriptor, handlers(lookup) as never, options));
  }
}
