// A unary call whose resource another process serves passes through as bytes: the request's bytes
// go to that process (a Forward), and its answer comes back as the answer, written as it came. The
// answer's message is decoded only if an interceptor reads it.
import { fromBinary, type DescMethodUnary, type DescService } from "@bufbuild/protobuf";
import type { HandlerContext, UnaryResponse } from "@connectrpc/connect";

/** Carries a call's request bytes to whoever really serves it; resolves with the answer's bytes. */
export type Forward = (message: Uint8Array, context: HandlerContext) => Promise<Uint8Array>;

/** The way through for a decoded request, when its resource is served by another process. */
export type ForwardOf = (service: DescService, method: DescMethodUnary, request: object) => Forward | undefined;

/** An answer as the lean path writes it; `bytes` when it came from elsewhere already encoded. */
export interface LeanResponse extends UnaryResponse {
  readonly bytes?: Uint8Array;
}

export function forwarded(service: DescService, method: DescMethodUnary, forward: Forward, bytes: Uint8Array, context: HandlerContext): Promise<LeanResponse> {
  return forward(bytes, context).then((answer) => new ForwardedResponse(service, method, context, answer));
}

class ForwardedResponse implements LeanResponse {
  readonly stream = false;
  readonly header: Headers;
  readonly trailer: Headers;
  private decoded: UnaryResponse["message"] | undefined;

  constructor(
    readonly service: DescService,
    readonly method: DescMethodUnary,
    context: HandlerContext,
    readonly bytes: Uint8Array,
  ) {
    this.header = context.responseHeader;
    this.trailer = context.responseTrailer;
  }

  get message(): UnaryResponse["message"] {
    return (this.decoded ??= fromBinary(this.method.output, this.bytes) as never);
  }
}
