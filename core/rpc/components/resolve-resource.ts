// The first step of every component handler: the resource the request names, with the method
// the RPC needs. A resource whose model lacks that method answers UNIMPLEMENTED, naming both.
import { formatResourceName, type Resource } from "../../resource/index.js";
import type { ResourceLookup } from "../resource-lookup.js";
import { Code, SvcError } from "../../errors/index.js";

export function resolve<T>(lookup: ResourceLookup, api: string, name: string, method: keyof T & string, rpc: string): T & Resource {
  const resource = lookup.resource(api, name);
  if (typeof (resource as unknown as Record<string, unknown>)[method] !== "function") throw unsupported(resource, rpc);
  return resource as T & Resource;
}

export function unsupported(resource: Resource, rpc: string): SvcError {
  return new SvcError(Code.Unimplemented, `${formatResourceName(resource.name)} does not support ${rpc}`);
}

/** Rejects an argument the wire allows but the API does not, naming the field. */
export function invalidArgument(field: string, problem: string): SvcError {
  return new SvcError(Code.InvalidArgument, `${field}: ${problem}`);
}

/** A string field the request must fill (a pin, a reader's name). */
export function requireText(value: string, field: string): string {
  if (value === "") throw invalidArgument(field, "must not be empty");
  return value;
}
