// Native gRPC over HTTP/2 for the official SDK, through its GRPC_TRANSPORT_FACTORY hook. The SDK
// is built on connect v1 (message classes, `MethodInfo`), which the installed connect-node v2
// transports cannot drive, so this is a small v1-shaped unary transport over node:http2. Errors
// are the SDK's own ConnectError, so the SDK handles them as it would its own.
import * as VIAM from "@viamrobotics/sdk";
import http2 from "node:http2";

interface V1Message {
  toBinary(): Uint8Array;
}
interface V1MessageType {
  new (data?: unknown): V1Message;
  fromBinary(bytes: Uint8Array): V1Message;
}
interface V1Method {
  readonly name: string;
  readonly I: V1MessageType;
  readonly O: V1MessageType;
}

type HeaderInit = ConstructorParameters<typeof Headers>[0];

export interface SdkGrpcTransports {
  /** Install as `globalThis.VIAM = { GRPC_TRANSPORT_FACTORY: transports.factory }`. */
  readonly factory: never;
  /** The paths of the calls carried so far (`/package.Service/Method`), oldest first. */
  readonly calls: readonly string[];
  /** Closes the HTTP/2 sessions the SDK opened. */
  close(): void;
}

export function createSdkGrpcTransports(tls?: http2.SecureClientSessionOptions): SdkGrpcTransports {
  const sessions = new Set<http2.ClientHttp2Session>();
  const calls: string[] = [];
  const factory = ({ baseUrl }: { baseUrl: string }) => {
    let session: http2.ClientHttp2Session | undefined;
    const open = () => {
      if (session && !session.closed && !session.destroyed) return session;
      session = http2.connect(baseUrl, tls);
      session.on("error", () => {});
      sessions.add(session);
      return session;
    };
    return {
      unary: (
        service: { typeName: string },
        method: V1Method,
        signal: AbortSignal | undefined,
        timeoutMs: number | undefined,
        header: HeaderInit | undefined,
        input: unknown,
      ) => {
        calls.push(`/${service.typeName}/${method.name}`);
        return unary(open(), service, method, signal, timeoutMs, header, input);
      },
      stream: () => Promise.reject(new VIAM.ConnectError("streams are not needed here", VIAM.Code.Unimplemented)),
    };
  };
  return {
    factory: factory as never,
    calls,
    close: () => sessions.forEach((session) => session.close()),
  };
}

async function unary(
  session: http2.ClientHttp2Session,
  service: { typeName: string },
  method: V1Method,
  signal: AbortSignal | undefined,
  timeoutMs: number | undefined,
  header: HeaderInit | undefined,
  input: unknown,
) {
  const message = input instanceof method.I ? input : new method.I(input);
  const bytes = message.toBinary();
  const frame = Buffer.alloc(5 + bytes.length);
  frame.writeUInt32BE(bytes.length, 1);
  frame.set(bytes, 5);
  const headers: http2.OutgoingHttpHeaders = {
    ":method": "POST",
    ":path": `/${service.typeName}/${method.name}`,
    "content-type": "application/grpc+proto",
    te: "trailers",
  };
  new Headers(header).forEach((value, key) => (headers[key] = value));
  if (timeoutMs !== undefined) headers["grpc-timeout"] = `${Math.max(1, Math.round(timeoutMs))}m`;

  const { responseHeaders, body, trailers } = await new Promise<{
    responseHeaders: http2.IncomingHttpHeaders;
    body: Buffer;
    trailers: http2.IncomingHttpHeaders;
  }>((resolve, reject) => {
    const stream = session.request(headers, { signal });
    const chunks: Buffer[] = [];
    let responseHeaders: http2.IncomingHttpHeaders = {};
    let trailers: http2.IncomingHttpHeaders = {};
    stream.on("response", (h) => (responseHeaders = h));
    stream.on("trailers", (t) => (trailers = t));
    stream.on("data", (chunk: Buffer) => chunks.push(chunk));
    stream.on("end", () => resolve({ responseHeaders, body: Buffer.concat(chunks), trailers }));
    stream.on("error", (e) => reject(new VIAM.ConnectError(e.message, VIAM.Code.Unavailable)));
    stream.end(frame);
  });

  const status = trailers["grpc-status"] ?? responseHeaders["grpc-status"];
  const metadata = new Headers();
  for (const [key, value] of Object.entries({ ...responseHeaders, ...trailers })) {
    if (!key.startsWith(":") && typeof value === "string") metadata.set(key, value);
  }
  if (status !== "0") {
    const text = String(trailers["grpc-message"] ?? responseHeaders["grpc-message"] ?? "");
    throw new VIAM.ConnectError(decodeURIComponent(text), Number(status ?? VIAM.Code.Unknown), metadata);
  }
  return {
    stream: false,
    service,
    method,
    header: metadata,
    message: method.O.fromBinary(body.subarray(5, 5 + body.readUInt32BE(1))),
    trailer: new Headers(),
  };
}
