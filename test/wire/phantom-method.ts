// Method descriptors for what nobody serves: a method a served service lacks, a service that does
// not exist. Every client takes a descriptor, so an unknown method is called exactly as a known
// one; it borrows the request and response types of a real method (the server never reads them).
import type { DescMessage, DescMethodUnary } from "@bufbuild/protobuf";

/** `shape` renamed to `/typeName/name`: same messages, a path nobody may serve. */
export function phantomMethod<I extends DescMessage, O extends DescMessage>(
  shape: DescMethodUnary<I, O>,
  typeName: string,
  name: string,
): DescMethodUnary<I, O> {
  const parent = { ...shape.parent, typeName, name: typeName.slice(typeName.lastIndexOf(".") + 1) };
  return { ...shape, name, localName: name[0]!.toLowerCase() + name.slice(1), parent };
}
