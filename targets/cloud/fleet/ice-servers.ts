// The ICE servers svc-cloud hands both ends of a WebRTC call (`--ice-server URL`, repeatable): a
// STUN server lets a machine behind NAT learn its public address, a TURN server relays the
// connection when no direct path exists. A TURN server's credentials ride in its URL
// (`turn:user:password@host:3478`) and are handed on as WebRTC wants them, split from the URL;
// STUN takes none. None by default: callers and machines then find only direct paths and the
// ones their own ICE servers give.
import { Code, SvcError } from "../../../core/index.js";

export interface IceServer {
  readonly urls: readonly string[];
  readonly username: string;
  readonly credential: string;
}

const SCHEMES = ["stun", "stuns", "turn", "turns"];
// host, [v6] or name, then an optional port and (TURN) query such as ?transport=tcp.
const ADDRESS = /^(\[[0-9a-f:.]+\]|[a-z0-9.-]+)(:\d{1,5})?(\?transport=(udp|tcp))?$/i;

/** One `--ice-server` value as an ICE server; InvalidArgument saying what is wrong. */
export function parseIceServer(text: string): IceServer {
  const refuse = (why: string) => new SvcError(Code.InvalidArgument, `--ice-server ${text}: ${why}`);
  const colon = text.indexOf(":");
  const scheme = colon < 0 ? "" : text.slice(0, colon).toLowerCase();
  if (!SCHEMES.includes(scheme)) throw refuse("expected stun:HOST[:PORT] or turn:[USER:PASSWORD@]HOST[:PORT]");
  const rest = text.slice(colon + 1);
  const at = rest.lastIndexOf("@");
  const address = at < 0 ? rest : rest.slice(at + 1);
  const match = ADDRESS.exec(address);
  if (match === null || Number((match[2] ?? ":0").slice(1)) > 65535) throw refuse("expected a host name or address, and a port of at most 65535");
  const turn = scheme.startsWith("turn");
  if (match[3] !== undefined && !turn) throw refuse("only a TURN server takes ?transport=");
  const url = `${scheme}:${address}`;
  if (at < 0) return { urls: [url], username: "", credential: "" };
  if (!turn) throw refuse("a STUN server takes no user or password");
  const userinfo = rest.slice(0, at);
  const split = userinfo.indexOf(":");
  if (split <= 0 || split === userinfo.length - 1) throw refuse("TURN credentials are USER:PASSWORD@ before the host");
  // Percent-encoded, as in any URL: a user name holding ':' writes it %3A.
  const decoded = (part: string) => {
    try {
      return decodeURIComponent(part);
    } catch {
      throw refuse("a '%' in USER or PASSWORD must start a percent-encoded byte (%40 for '@')");
    }
  };
  return { urls: [url], username: decoded(userinfo.slice(0, split)), credential: decoded(userinfo.slice(split + 1)) };
}
