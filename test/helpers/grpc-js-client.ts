// A @grpc/grpc-js client for any of our generated services over HTTP/2: unary calls by method
// descriptor, encoded and decoded by protobuf-es v2, with metadata per call. Every call carries
// a deadline, so a server that never answers fails the test instead of hanging it.
import {
  create,
  fromBinary,
  toBinary,
  type DescMessage,
  type DescMethodUnary,
  type MessageInitShape,
  type MessageShape,
} from "@bufbuild/protobuf";
import * as grpc from "@grpc/grpc-js";

export interface GrpcJsClient {
  /** Calls `method` of the service it belongs to. */
  call<I extends DescMessage, O extends DescMessage>(
    method: DescMethodUnary<I, O>,
    request: MessageInitShape<I>,
    metadata?: Record<string, string>,
  ): Promise<MessageShape<O>>;
  /** Calls any path, served or not, with the given message types. */
  callPath<I extends DescMessage, O extends DescMessage>(
    path: string,
    input: I,
    output: O,
    request: MessageInitShape<I>,
    metadata?: Record<string, string>,
  ): Promise<MessageShape<O>>;
  close(): void;
}

export interface GrpcJsClientOptions {
  credentials?: grpc.ChannelCredentials;
  /** Per call; default 30 s. */
  deadlineMs?: number;
}

/** `address` is "host:port", or a URL whose host and port are taken. */
export function createGrpcJsClient(address: string, options: GrpcJsClientOptions = {}): GrpcJsClient {
  const target = address.includes("://") ? new URL(address).host : address;
  const client = new grpc.Client(target, options.credentials ?? grpc.credentials.createInsecure());
  const deadlineMs = options.deadlineMs ?? 30_000;

  function callPath<I extends DescMessage, O extends DescMessage>(
    path: string,
    input: I,
    output: O,
    request: MessageInitShape<I>,
    metadata: Record<string, string> = {},
  ): Promise<MessageShape<O>> {
    const meta = new grpc.Metadata();
    for (const [key, value] of Object.entries(metadata)) meta.set(key, value);
    const message = create(input, request);
    return new Promise((resolve, reject) => {
      client.makeUnaryRequest(
        path,
        (m: MessageShape<I>) => Buffer.from(toBinary(input, m)),
        (bytes: Buffer) => fromBinary(output, bytes),
        message,
        meta,
        { deadline: Date.now() + deadlineMs },
        (error, response) => (error ? reject(error) : resolve(response!)),
      );
    });
  }

  return {
    call: (method, request, metadata) =>
      callPath(`/${method.parent.typeName}/${method.name}`, method.input, method.output, request, metadata),
    callPath,
    close: () => client.close(),
  };
}
