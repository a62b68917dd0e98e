// Parses the `bind_address` setting ("localhost:8080", "0.0.0.0:0", "[::1]:8080", ":8080") into
// what `listen()` takes. An empty host means every interface; "localhost" means 127.0.0.1, as
// the reference runtime binds it, so a client that resolves localhost to either family finds it.
export interface BindAddress {
  /** Host to listen on; undefined listens on every interface. */
  readonly host: string | undefined;
  /** Port; 0 lets the system pick a free one. */
  readonly port: number;
}

export type BindAddressResult = { ok: true; value: BindAddress } | { ok: false; problem: string };

export function parseBindAddress(text: string): BindAddressResult {
  const colon = text.lastIndexOf(":");
  if (colon < 0) return fail(text, 'must be "host:port", for example "localhost:8080"');
  let host = text.slice(0, colon);
  const portText = text.slice(colon + 1);
  if (host.startsWith("[")) {
    if (!host.endsWith("]")) return fail(text, 'an IPv6 host is written in brackets: "[::1]:8080"');
    host = host.slice(1, -1);
  } else if (host.includes(":")) {
    return fail(text, 'an IPv6 host is written in brackets: "[::1]:8080"');
  }
  if (!/^[0-9]{1,5}$/.test(portText) || Number(portText) > 65535) {
    return fail(text, "the port must be a whole number from 0 to 65535");
  }
  if (host === "localhost") host = "127.0.0.1";
  return { ok: true, value: { host: host === "" ? undefined : host, port: Number(portText) } };
}

function fail(text: string, why: string): BindAddressResult {
  return { ok: false, problem: `bind_address ${JSON.stringify(text)}: ${why}` };
}
