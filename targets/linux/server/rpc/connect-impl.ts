// A core handler set as a connect ServiceImpl: each method gets its CallInfo (see connect-call.ts)
// and whatever it throws leaves as a ConnectError with the same gRPC code (connect-errors.ts).
import type { DescService } from "@bufbuild/protobuf";
import type { HandlerContext, ServiceImpl } from "@connectrpc/connect";
import type { CallInfo, ServiceHandlers } from "../../../../core/index.js";
import { createConnectCall, type ConnectCallOptions } from "./connect-call.js";
import { toConnectError } from "./connect-errors.js";

type AnyUnary = (request: unknown, call: CallInfo) => Promise<unknown>;
type AnyStream = (request: unknown, call: CallInfo) => AsyncIterable<unknown>;

export function toConnectImpl<S extends DescService>(
  service: S,
  handlers: Partial<ServiceHandlers<S>>,
  options: ConnectCallOptions = {},
): Partial<ServiceImpl<S>> {
  const impl: Record<string, unknown> = {};
  for (const method of service.methods) {
    const handler = (handlers as Record<string, unknown>)[method.localName];
    if (typeof handler !== "function") continue;
    if (method.methodKind === "unary") {
      const unary = handler as AnyUnary;
      impl[method.localName] = async (request: unknown, context: HandlerContext) => {
        const { call, settle } = createConnectCall(context, options);
        try {
          return await unary(request, call);
        } catch (thrown) {
          throw toConnectError(thrown);
        } finally {
          settle();
        }
      };
    } else if (method.methodKind === "server_streaming") {
      const stream = handler as AnyStream;
      impl[method.localName] = async function* (request: unknown, context: HandlerContext) {
        const { call, settle } = createConnectCall(context, options);
        try {
          yield* stream(request, call);
        } catch (thrown) {
          throw toConnectError(thrown);
        } finally {
          settle();
        }
      };
    }
  }
  return impl as Partial<ServiceImpl<S>>;
}
