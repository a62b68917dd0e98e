// How much request body the MCU reads, decided from the request's head before any of the body
// arrives, so a transport (Moddable's HTTP server on a device, the Node shim on a host) can stop
// keeping bytes at the limit instead of finding out after buffering them. The limits are sized
// for a microcontroller, not for the 4 MiB svc-server allows a configuration: a configuration's
// text, its parsed objects and the running configuration share a heap with tens of kilobytes
// free, and XS walks a string by index in time that grows with the square of its length (it
// keeps strings as UTF-8), which some checks of a configuration's text do. A 20-resource
// configuration is about 3 KB; the largest request a served method takes (a DoCommand's
// Struct) fits well within a call's limit.

/** Bytes of a configuration PUT to /svc/config: 16 KiB. */
export const MAX_CONFIG_BODY_BYTES = 16 * 1024;

/** Bytes of a gRPC-web request body (its one frame, header included): 16 KiB. */
export const MAX_GRPC_WEB_BODY_BYTES = 16 * 1024;

/** Where a new configuration can be PUT, when the exchange accepts one. */
export const CONFIG_ROUTE = "/svc/config";

/** The request target without its query. */
export function routeOf(target: string): string {
  const query = target.indexOf("?");
  return query < 0 ? target : target.slice(0, query);
}

/** "application/grpc-web+proto; charset=x" -> "application/grpc-web+proto". */
export function mediaTypeOf(contentType: string | undefined): string {
  return (contentType ?? "").split(";")[0]!.trim().toLowerCase();
}

/**
 * The most body bytes a request may bring, by its method, target and content type: a
 * configuration PUT, or a gRPC-web POST; nothing for anything else (it is answered without its
 * body). The exchange may allow less for a request it refuses from its head alone.
 */
export function requestBodyLimit(method: string, target: string, contentType: string | undefined): number {
  if (method === "PUT" && routeOf(target) === CONFIG_ROUTE) return MAX_CONFIG_BODY_BYTES;
  if (method === "POST" && mediaTypeOf(contentType).startsWith("application/grpc-web")) return MAX_GRPC_WEB_BODY_BYTES;
  return 0;
}
