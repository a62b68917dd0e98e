// What a path that no RPC method serves answers when the request is shaped like an RPC: gRPC
// status 12 UNIMPLEMENTED in the caller's own protocol, so every client reports "unimplemented"
// rather than a transport failure; or another status the caller must hear first (a caller
// without a token is UNAUTHENTICATED, and learns nothing of what is served). Other requests go
// on to the plain routes, then a 404.
import { Code } from "../../core/index.js";
import type { HttpRequest, HttpResponse } from "./http-types.js";
import { answerRefusal, type RpcRefusal } from "./rpc-refusal.js";

export interface UnknownRpcResponder {
  /** Whether the request is shaped like an RPC (gRPC, gRPC-web, or Connect to a method's path). */
  isRpc(req: HttpRequest, path: string): boolean;
  /** Answers an RPC-shaped request in its own protocol: `refusal`, or UNIMPLEMENTED. */
  answerRpc(req: HttpRequest, res: HttpResponse, path: string, refusal?: RpcRefusal): void;
  /** The plain 404 for everything else. */
  notFound(res: HttpResponse): void;
}

/** What a call to `path` hears when nothing serves it: the method or the service, by `services` (fully qualified names). */
export function unknownRpcMessage(services: ReadonlySet<string>, path: string): string {
  const [, service = "", method = ""] = path.split("/");
  return services.has(service) ? `unknown method ${method} for service ${service}` : `unknown service ${service}`;
}

/** `services` are the fully qualified names served, so the message can say service or method. */
export function createUnknownRpcResponder(services: ReadonlySet<string>): UnknownRpcResponder {
  const messageFor = (path: string) => unknownRpcMessage(services, path);

  return {
    isRpc(req, path) {
      const contentType = req.headers["content-type"] ?? "";
      return contentType.startsWith("application/grpc") || isConnectRequest(req, contentType, path);
    },
    answerRpc(req, res, path, refusal) {
      const answer = refusal ?? { code: Code.Unimplemented, message: messageFor(path) };
      // A path no method serves is a 404 in Connect, as connect's own router answers it.
      answerRefusal(req, res, answer, answer.code === Code.Unimplemented ? 404 : undefined);
    },
    notFound(res) {
      res.writeHead(404, { "content-type": "text/plain; charset=utf-8" });
      res.end("404 page not found\n");
    },
  };
}

// Connect requests look like any JSON POST, so the path must look like a method as well
// ("/package.Service/Method"), leaving a plain JSON route free to take other paths.
const methodPath = /^\/[A-Za-z_][\w]*(\.[A-Za-z_][\w]*)+\/[A-Za-z_]\w*$/;

function isConnectRequest(req: HttpRequest, contentType: string, path: string): boolean {
  if (!methodPath.test(path)) return false;
  if (req.headers["connect-protocol-version"] !== undefined) return true;
  return req.method === "POST" && /^application\/(connect\+)?(proto|json)\b/.test(contentType);
}
