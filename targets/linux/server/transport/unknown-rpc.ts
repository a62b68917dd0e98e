// What a path that no RPC method serves answers when the request is shaped like an RPC: gRPC
// status 12 UNIMPLEMENTED in the caller's own protocol, so every client reports "unimplemented"
// rather than a transport failure. Other requests go on to the plain routes, then a 404.
import { encodeGrpcMessage } from "./grpc-message.js";
import type { HttpRequest, HttpResponse } from "./http-types.js";

const unimplemented = "12";

export interface UnknownRpcResponder {
  /** Answers an RPC-shaped request with UNIMPLEMENTED; false for anything else, left unanswered. */
  answerRpc(req: HttpRequest, res: HttpResponse, path: string): boolean;
  /** The plain 404 for everything else. */
  notFound(res: HttpResponse): void;
}

/** `services` are the fully qualified names served, so the message can say service or method. */
export function createUnknownRpcResponder(services: ReadonlySet<string>): UnknownRpcResponder {
  const messageFor = (path: string) => {
    const [, service = "", method = ""] = path.split("/");
    return services.has(service) ? `unknown method ${method} for service ${service}` : `unknown service ${service}`;
  };

  return {
    answerRpc(req, res, path) {
      const contentType = req.headers["content-type"] ?? "";
      if (contentType.startsWith("application/grpc-web")) {
        // Trailers-only: the status travels in the headers, which CORS exposes to browsers.
        res.writeHead(200, {
          "content-type": contentType.split(";")[0]!,
          "grpc-status": unimplemented,
          "grpc-message": encodeGrpcMessage(messageFor(path)),
        });
        res.end();
      } else if (contentType.startsWith("application/grpc")) {
        res.writeHead(200, { "content-type": "application/grpc" });
        res.addTrailers({ "grpc-status": unimplemented, "grpc-message": encodeGrpcMessage(messageFor(path)) });
        res.end();
      } else if (isConnectRequest(req, contentType, path)) {
        const body = JSON.stringify({ code: "unimplemented", message: messageFor(path) });
        res.writeHead(404, { "content-type": "application/json" });
        res.end(body);
      } else {
        return false;
      }
      return true;
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
