// The request and response types a handler on the API port sees: Node's HTTP/1.1 ones or the
// HTTP/2 compatibility ones, which share the parts a plain route needs.
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Http2ServerRequest, Http2ServerResponse } from "node:http2";

export type HttpRequest = IncomingMessage | Http2ServerRequest;
export type HttpResponse = ServerResponse | Http2ServerResponse;
export type HttpHandler = (req: HttpRequest, res: HttpResponse) => void | Promise<void>;
