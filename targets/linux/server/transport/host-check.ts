// The Host check for a machine without API keys: a request must name the machine by one of its
// own names (machine-names.ts). A page on another site can make a browser resolve its own name to
// the machine's address (DNS rebinding); the browser then calls with that site's name as Host,
// and finds the door shut. HTTP/2 carries the host as `:authority`, which Node also reads as
// `host`.
import type { IncomingHttpHeaders } from "node:http2";
import type { HttpResponse } from "../../../../node/rpc/http-types.js";
import { splitHostPort, type MachineNames } from "./machine-names.js";

/** Why a request with these `headers` does not name this machine, or undefined when it does. */
export function hostRefusal(headers: IncomingHttpHeaders, names: MachineNames): string | undefined {
  const host = headers.host ?? headers[":authority"];
  const given = typeof host === "string" ? host : "";
  const split = splitHostPort(given);
  if (split !== undefined && names.has(split.host)) return undefined;
  const named = given === "" ? "no host" : `host ${JSON.stringify(given.slice(0, 255))}`;
  return (
    `this machine has no API keys, so it answers only under its own names, and the request names ${named}. ` +
    `Add the name to network.allowed_hosts (or network.fqdn), or configure an api-key handler under auth.handlers.\n`
  );
}

/** 421 Misdirected Request: this server does not answer for that host. */
export function refuseHost(res: HttpResponse, why: string): void {
  res.writeHead(421, { "content-type": "text/plain; charset=utf-8", "cache-control": "no-store" });
  res.end(why);
}
