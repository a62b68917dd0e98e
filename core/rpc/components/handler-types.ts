// The shape of a transport-neutral service implementation: one function per method of a
// generated service descriptor, keyed by the method's local name as connect's ServiceImpl is,
// taking the decoded request and the call and resolving to the response's init shape. A
// transport only has to decode, build a CallInfo, call, encode, and translate SvcError.
import type {
  DescMessage,
  DescMethodServerStreaming,
  DescMethodUnary,
  DescService,
  MessageInitShape,
  MessageShape,
} from "@bufbuild/protobuf";
import type { CallInfo } from "../call.js";

export type UnaryHandler<I extends DescMessage, O extends DescMessage> = (
  request: MessageShape<I>,
  call: CallInfo,
) => Promise<MessageInitShape<O>>;

export type ServerStreamHandler<I extends DescMessage, O extends DescMessage> = (
  request: MessageShape<I>,
  call: CallInfo,
) => AsyncIterable<MessageInitShape<O>>;

export type MethodHandler<M> =
  M extends DescMethodUnary<infer I, infer O>
    ? UnaryHandler<I, O>
    : M extends DescMethodServerStreaming<infer I, infer O>
      ? ServerStreamHandler<I, O>
      : never;

/** A handler for every method of the service `S` (a generated descriptor such as `SensorService`). */
export type ServiceHandlers<S extends DescService> = {
  [K in keyof S["method"]]: MethodHandler<S["method"][K]>;
};
