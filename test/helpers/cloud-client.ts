// Clients of svc-cloud as machines and scripts are: connect-node over HTTP/2 (gRPC) or HTTP/1.1
// (gRPC-web), signed in through `proto.rpc.v1.AuthService` with an API key, sending the token on
// every call.
import { createClient, type Client, type Interceptor, type Transport } from "@connectrpc/connect";
import { createGrpcTransport, createGrpcWebTransport } from "@connectrpc/connect-node";
import type { DescService } from "@bufbuild/protobuf";
import { AuthService } from "../../proto/gen/proto/rpc/v1/auth_pb.js";

export type Wire = "grpc" | "grpc-web";

export function cloudTransport(url: string, wire: Wire = "grpc", interceptors: Interceptor[] = []): Transport {
  return wire === "grpc"
    ? createGrpcTransport({ baseUrl: url, interceptors })
    : createGrpcWebTransport({ baseUrl: url, httpVersion: "1.1", interceptors });
}

/** An access token for an API key (entity = the key's id). */
export async function signIn(url: string, keyId: string, key: string, wire: Wire = "grpc"): Promise<string> {
  const auth = createClient(AuthService, cloudTransport(url, wire));
  const { accessToken } = await auth.authenticate({ entity: keyId, credentials: { type: "api-key", payload: key } });
  return accessToken;
}

export function bearer(token: string): Interceptor {
  return (next) => (req) => {
    req.header.set("authorization", `Bearer ${token}`);
    return next(req);
  };
}

/** A client of `service` signed in with an API key. */
export async function signedInClient<S extends DescService>(service: S, url: string, apiKey: { id: string; key: string }, wire: Wire = "grpc"): Promise<Client<S>> {
  const token = await signIn(url, apiKey.id, apiKey.key, wire);
  return createClient(service, cloudTransport(url, wire, [bearer(token)]));
}
