// connect's general way for one call: its protocol handler reads the body it is given and
// answers. A call comes here when the lean path does not take it (streams from the client, the
// Connect protocol, compression); the port's bounds were applied before.
import { ConnectError, type ContextValues } from "@connectrpc/connect";
import type { UniversalHandler } from "@connectrpc/connect/protocol";
import { universalRequestFromNodeRequest, universalResponseToNodeResponse } from "@connectrpc/connect-node";
import { Code } from "../../core/index.js";
import type { HttpRequest, HttpResponse } from "./http-types.js";
import { answerRefusal } from "./rpc-refusal.js";

/** One call as connect's handler takes it. */
export interface ConnectCall {
  readonly values: ContextValues;
  /** The request body, already held to the port's bounds. */
  readonly body: AsyncIterable<Uint8Array>;
  readonly deadline: AbortSignal | undefined;
}

/** Told when an answer could not be written for another reason than the client leaving. */
export type CallErrorListener = (error: unknown, path: string) => void;

/** Runs `method` for a call on Node's request and response objects. */
export function connectOverNode(
method: UniversalHandler,
req: HttpRequest,
res: HttpResponse,
path: string,
onError: CallErrorListener,
call: ConnectCall,
): void {
  let universal: ReturnType<typeof universalRequestFromNodeRequest>;
  try {
    universal = universalRequestFromNodeRequest(req, res, undefined, call.values);
  } catch (error) {
    // connect needs the authority to build the URL; an HTTP/1.0 request may have none.
    answerRefusal(req, res, { code: Code.InvalidArgument, message: ConnectError.from(error).rawMessage });
    return;
  }
  const signal = call.deadline ? AbortSignal.any([universal.signal, call.deadline]) : universal.signal;
  method({ ...universal, body: call.body, signal })
    .then((answer) => universalResponseToNodeResponse(answer, res))
    .catch((reason: unknown) => {
      // Aborted: the client went away, nobody is left to tell.
      if (ConnectError.from(reason).code !== Code.Aborted) onError(reason, path);
    });
}
