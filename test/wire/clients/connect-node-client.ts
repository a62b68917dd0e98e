// connect-node v2's own clients: gRPC over HTTP/2, gRPC-web and Connect over HTTP/1.1, each
// calling through the transport directly, so any method descriptor (a phantom one too) is called
// the way a generated client would call it.
import { create, toJson, type DescMessage, type DescMethodServerStreaming, type DescMethodUnary } from "@bufbuild/protobuf";
import { ConnectError, type Transport } from "@connectrpc/connect";
import { createConnectTransport, createGrpcTransport, createGrpcWebTransport } from "@connectrpc/connect-node";
import type { WireCall, WireClient, WireClientKind, WireCredentials, WireOutcome, WireProtocol, WireTarget } from "../wire-client.js";
import { createBearer, detailTypes, headerRecord } from "./outcomes.js";

const makers = {
  grpc: () => ({ make: createGrpcTransport, http: "2" as const }),
  "grpc-web": () => ({ make: createGrpcWebTransport, http: "1.1" as const }),
  connect: () => ({ make: createConnectTransport, http: "1.1" as const }),
};

const noRaw = "a connect client encodes every body itself";

export function connectNodeKind(protocol: WireProtocol): WireClientKind {
  const { make, http } = makers[protocol]();
  return {
    name: `connect-node ${protocol === "grpc" ? "gRPC" : protocol === "grpc-web" ? "gRPC-web" : "Connect"}`,
    protocol,
    http,
    declaresLength: false,
    cannot: { raw: noRaw },
    open: (target, credentials) => openConnectNode(make({ baseUrl: target.url, httpVersion: http }), credentials),
  };
}

function openConnectNode(transport: Transport, credentials: WireCredentials | undefined): WireClient {
  const plain = (call: WireCall) => unary(transport, call, {});
  const bearer = createBearer(credentials, plain);
  const withBearer = async (call: WireCall, run: (headers: Record<string, string>) => Promise<WireOutcome>) => {
    const auth = await bearer();
    return "failure" in auth ? auth.failure : run(auth.headers);
  };
  return {
    unary: (call) => withBearer(call, (headers) => unary(transport, call, headers)),
    stream: (call) => withBearer(call, (headers) => stream(transport, call, headers)),
    raw: () => Promise.reject(new Error(noRaw)),
    close: async () => {},
  };
}

function signalOf(call: WireCall): AbortSignal | undefined {
  if (!call.abortWhen) return undefined;
  const controller = new AbortController();
  void call.abortWhen.then(() => controller.abort());
  return controller.signal;
}

async function unary(transport: Transport, call: WireCall, auth: Record<string, string>): Promise<WireOutcome> {
  const method = call.method as DescMethodUnary<DescMessage, DescMessage>;
  try {
    const res = await transport.unary(method, signalOf(call), call.timeoutMs, { ...call.headers, ...auth }, call.request);
    return { code: 0, message: "", value: toJson(method.output, res.message), metadata: headerRecord(res.header, res.trailer), details: [] };
  } catch (error) {
    return failure(error);
  }
}

async function stream(transport: Transport, call: WireCall, auth: Record<string, string>): Promise<WireOutcome> {
  const method = call.method as unknown as DescMethodServerStreaming<DescMessage, DescMessage>;
  const messages: ReturnType<typeof toJson>[] = [];
  try {
    const input = (async function* () {
      yield create(method.input, call.request);
    })();
    const res = await transport.stream(method, signalOf(call), call.timeoutMs, { ...call.headers, ...auth }, input);
    for await (const message of res.message) messages.push(toJson(method.output, message));
    return { code: 0, message: "", messages, metadata: headerRecord(res.header, res.trailer), details: [] };
  } catch (error) {
    return { ...failure(error), messages };
  }
}

function failure(error: unknown): WireOutcome {
  const e = ConnectError.from(error);
  return { code: e.code, message: e.rawMessage, metadata: headerRecord(e.metadata), details: detailTypes(e.details) };
}
