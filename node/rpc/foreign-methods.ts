// Methods of services this process has no description of, served by passing their bytes on: a
// remote part's arm (viam.component.arm.v1.ArmService) when svc serves no arms itself, a modular
// API. Whoever knows the service (`serves`) is handed each unary call's request bytes and answers
// with the answer's bytes; the call goes through connect like any other, behind the port's own
// checks, bounds and interceptors, so credentials, sessions, deadlines and cancellation hold as
// for a served method. The method is described on its first call from its path alone (one
// message in, one out, both kept as the bytes they are), and at most MAX_FOREIGN_PATHS are kept.
// Binary protobuf only: a JSON request cannot be turned into the bytes the peer reads, and is
// answered as for a method nobody serves.
import { create, createFileRegistry, fromBinary, toBinary, type DescMessage, type DescService, type Message } from "@bufbuild/protobuf";
import { FileDescriptorProtoSchema } from "@bufbuild/protobuf/wkt";
import { createConnectRouter, type ConnectRouterOptions, type HandlerContext, type ServiceImpl } from "@connectrpc/connect";
import type { UniversalHandler } from "@connectrpc/connect/protocol";

export const MAX_FOREIGN_PATHS = 256;

export interface ForeignServices {
  /** Whether calls to the service of this fully qualified name are passed on. */
  serves(service: string): boolean;
  /** One unary call passed on: its request's bytes in, its answer's bytes out, or a thrown error. */
  call(path: string, message: Uint8Array, context: HandlerContext): Promise<Uint8Array>;
}

export interface ForeignMethods {
  /** The handler for `path` when its service is passed on and the request is binary; undefined otherwise. */
  handlerFor(path: string, contentType: string | undefined): UniversalHandler | undefined;
  /** Whether `path` names a method of a service passed on. */
  serves(path: string): boolean;
}

const methodPath = /^\/([A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+)\/([A-Za-z_]\w*)$/;
const bytesFile = "svc/foreign/bytes.proto";
const bytesRegistry = createFileRegistry(
  create(FileDescriptorProtoSchema, { name: bytesFile, package: "svc.foreign", syntax: "proto3", messageType: [{ name: "Bytes" }] }),
  () => undefined,
);
/** A message with no fields: what it is read from it keeps as unknown fields, and writes again as it was. */
const Bytes: DescMessage = bytesRegistry.getMessage("svc.foreign.Bytes")!;

export function createForeignMethods(services: ForeignServices, routerOptions: ConnectRouterOptions): ForeignMethods {
  const handlers = new Map<string, UniversalHandler>();
  const serviceOf = (path: string) => {
    const match = methodPath.exec(path);
    return match && services.serves(match[1]!) ? { service: match[1]!, method: match[2]! } : undefined;
  };

  function describe(path: string, service: string, method: string): UniversalHandler {
    const dot = service.lastIndexOf(".");
    const file = create(FileDescriptorProtoSchema, {
      name: `svc/foreign${path}.proto`,
      package: service.slice(0, dot),
      syntax: "proto3",
      dependency: [bytesFile],
      service: [{ name: service.slice(dot + 1), method: [{ name: method, inputType: ".svc.foreign.Bytes", outputType: ".svc.foreign.Bytes" }] }],
    });
    const descriptor = createFileRegistry(file, (name) => (name === bytesFile ? bytesRegistry.getFile(bytesFile) : undefined)).getService(service)!;
    const router = createConnectRouter(routerOptions);
    const pass = async (request: Message, context: HandlerContext) => fromBinary(Bytes, await services.call(path, toBinary(Bytes, request), context));
    router.service(descriptor, { [descriptor.methods[0]!.localName]: pass } as unknown as Partial<ServiceImpl<DescService>>);
    return router.handlers[0]!;
  }

  return {
    handlerFor(path, contentType) {
      const named = serviceOf(path);
      if (named === undefined) return undefined;
      // Unknown to a JSON caller, as to anyone the port has not checked yet.
      if (contentType?.includes("json")) return undefined;
      const known = handlers.get(path);
      if (known !== undefined) return known;
      if (handlers.size >= MAX_FOREIGN_PATHS) handlers.delete(handlers.keys().next().value!);
      const handler = describe(path, named.service, named.method);
      handlers.set(path, handler);
      return handler;
    },
    serves: (path) => serviceOf(path) !== undefined,
  };
}
