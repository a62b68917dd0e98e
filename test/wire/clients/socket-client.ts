// HTTP/1.1 written by hand on a TCP socket, for gRPC-web and Connect: the request line, headers
// (a lying content-length included) and body exactly as given, the answer read to the
// connection's end (every request asks `connection: close`) and taken apart here, chunked or not.
// Abandoning a call destroys the socket.
import net from "node:net";
import { decodeAnswer, headerLines, type HttpAnswer } from "../wire-codec.js";
import type { AnyMethod, WireClient, WireClientKind, WireProtocol } from "../wire-client.js";
import { abandoned, handMadeCalls, transportFailure } from "./outcomes.js";

/** A bound on every exchange, so a server that never answers fails the case instead of hanging it. */
const SOCKET_MAX_MS = 20_000;

export function socketKind(protocol: Exclude<WireProtocol, "grpc">): WireClientKind {
  return {
    name: `socket ${protocol === "grpc-web" ? "gRPC-web" : "Connect"}`,
    protocol,
    http: "1.1",
    declaresLength: true,
    cannot: {},
    open(target, credentials) {
      const { hostname, port, host } = new URL(target.url);
      const send = async (method: AnyMethod, headers: Record<string, string>, body: Uint8Array, abortWhen?: Promise<unknown>) => {
        const path = `/${method.parent.typeName}/${method.name}`;
        const answer = await exchange(hostname, Number(port), request(path, host, headers, body), abortWhen);
        if (answer === undefined) return abandoned;
        return answer.failure !== undefined ? transportFailure(answer.failure) : decodeAnswer(protocol, method, answer);
      };
      return {
        ...handMadeCalls(protocol, credentials, send),
        close: async () => {},
      } satisfies WireClient;
    },
  };
}

function request(path: string, host: string, headers: Record<string, string>, body: Uint8Array): Buffer {
  const all: Record<string, string> = { host, "content-length": String(body.length), connection: "close", ...headers };
  const head = [`POST ${path} HTTP/1.1`, ...Object.entries(all).map(([k, v]) => `${k}: ${v}`), "", ""].join("\r\n");
  return Buffer.concat([Buffer.from(head, "latin1"), body]);
}

/** The answer read to the connection's end; undefined when abandoned first. */
function exchange(
  host: string,
  port: number,
  bytes: Buffer,
  abortWhen: Promise<unknown> | undefined,
): Promise<(HttpAnswer & { failure?: string }) | undefined> {
  return new Promise((resolve) => {
    const socket = net.connect(port, host);
    const chunks: Buffer[] = [];
    let abandonedByUs = false;
    socket.setTimeout(SOCKET_MAX_MS, () => socket.destroy(new Error(`no answer within ${SOCKET_MAX_MS} ms`)));
    socket.on("data", (d: Buffer) => chunks.push(d));
    let failure: Error | undefined;
    socket.on("error", (error) => (failure = error));
    socket.on("close", () => {
      if (abandonedByUs) return resolve(undefined);
      const answer = parseResponse(Buffer.concat(chunks));
      resolve(answer ?? { status: 0, headers: {}, trailers: {}, body: new Uint8Array(), failure: `the connection closed without an answer${failure ? ` (${failure.message})` : ""}` });
    });
    socket.write(bytes);
    void abortWhen?.then(() => {
      abandonedByUs = true;
      socket.destroy();
    });
  });
}

function parseResponse(all: Buffer): HttpAnswer | undefined {
  // Interim answers (100 Continue) come first.
  let at = 0;
  for (;;) {
    const end = all.indexOf("\r\n\r\n", at);
    if (end < 0) return undefined;
    const head = all.subarray(at, end).toString("latin1");
    const [statusLine = "", ...lines] = head.split("\r\n");
    const status = Number(statusLine.split(" ")[1]);
    at = end + 4;
    if (status >= 100 && status < 200) continue;
    const headers = headerLines(lines.join("\n"));
    const rest = all.subarray(at);
    const body = headers["transfer-encoding"]?.includes("chunked") ? unchunk(rest) : rest;
    return { status, headers, trailers: {}, body: new Uint8Array(body) };
  }
}

function unchunk(data: Buffer): Buffer {
  const parts: Buffer[] = [];
  let at = 0;
  for (;;) {
    const lineEnd = data.indexOf("\r\n", at);
    if (lineEnd < 0) break;
    const size = parseInt(data.subarray(at, lineEnd).toString("latin1"), 16);
    if (!(size > 0)) break;
    parts.push(data.subarray(lineEnd + 2, lineEnd + 2 + size));
    at = lineEnd + 2 + size + 2;
  }
  return Buffer.concat(parts);
}
