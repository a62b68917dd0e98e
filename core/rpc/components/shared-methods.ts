// Methods several services share, written once: DoCommand, GetReadings and GetGeometries.
import type {
  DoCommandRequestSchema,
  DoCommandResponseSchema,
  GetGeometriesRequestSchema,
  GetGeometriesResponseSchema,
  GetReadingsRequestSchema,
  GetReadingsResponseSchema,
} from "../../../proto/gen/common/v1/common_pb.js";
import type { Commandable } from "../../components/index.js";
import type { ReadingsSource } from "../../resource/index.js";
import type { ResourceLookup } from "../resource-lookup.js";
import { Code, SvcError } from "../../errors/index.js";
import type { UnaryHandler } from "./handler-types.js";
import { resolve, unsupported } from "./resolve-resource.js";
import { toJsonObject, toValueMap } from "./struct-value.js";

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** DoCommand: the command's Struct in, the resource's answer out as a Struct. */
export function doCommandMethod(lookup: ResourceLookup, api: string): UnaryHandler<typeof DoCommandRequestSchema, typeof DoCommandResponseSchema> {
  return async (request) => {
    const resource = resolve<Commandable>(lookup, api, request.name, "doCommand", "DoCommand");
    const result: unknown = await resource.doCommand(request.command ?? {});
    if (result === undefined || result === null) return { result: {} };
    if (!isRecord(result)) throw new SvcError(Code.Internal, `result: DoCommand answered a ${Array.isArray(result) ? "list" : typeof result}, not a map`);
    return { result: toJsonObject(result, "result") };
  };
}

/** GetReadings: each reading as a google.protobuf.Value. */
export function readingsMethod(lookup: ResourceLookup, api: string): UnaryHandler<typeof GetReadingsRequestSchema, typeof GetReadingsResponseSchema> {
  return async (request) => {
    const resource = resolve<ReadingsSource>(lookup, api, request.name, "getReadings", "GetReadings");
    const readings: unknown = await resource.getReadings(request.extra);
    if (!isRecord(readings)) throw new SvcError(Code.Internal, `readings: the sensor answered a ${typeof readings}, not a map of readings`);
    return { readings: toValueMap(readings, "readings") };
  };
}

/** GetGeometries where the API has geometries but our models describe none: UNIMPLEMENTED. */
export function geometriesUnsupportedMethod(
  lookup: ResourceLookup,
  api: string,
): UnaryHandler<typeof GetGeometriesRequestSchema, typeof GetGeometriesResponseSchema> {
  return async (request) => {
    throw unsupported(lookup.resource(api, request.name), "GetGeometries (its model describes no geometries)");
  };
}

/** GetGeometries where a resource without a shape has none to report (the generic component). */
export function noGeometriesMethod(lookup: ResourceLookup, api: string): UnaryHandler<typeof GetGeometriesRequestSchema, typeof GetGeometriesResponseSchema> {
  return async (request) => {
    lookup.resource(api, request.name);
    return { geometries: [] };
  };
}
