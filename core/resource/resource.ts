// The contract every running resource keeps, whatever its API: it knows its name, answers the
// free-form DoCommand every API carries, and releases what it holds on close. API-specific
// methods (a sensor's readings, a motor's power) live on top of this in each API's own interface.
import type { ResourceName } from "./resource-name.js";

export type CommandPayload = Record<string, unknown>;

export interface Resource {
  readonly name: ResourceName;
  /** DoCommand; a resource without it answers "unimplemented" through the API layer. */
  doCommand?(command: CommandPayload): Promise<CommandPayload>;
  /** Releases everything the resource holds. Called once, after every dependent is closed. */
  close(): Promise<void>;
}

/** What a sensor-like resource offers; the maintenance gate reads resources through this. */
export interface ReadingsSource {
  getReadings(extra?: CommandPayload): Promise<Record<string, unknown>>;
}

export function hasReadings(resource: Resource): resource is Resource & ReadingsSource {
  return typeof (resource as Partial<ReadingsSource>).getReadings === "function";
}

/**
 * The smallest logger the graph and the models need. The log engine's loggers fit it, and tests
 * can pass a collecting one.
 */
export interface LoggerLike {
  debug(message: string, fields?: Record<string, unknown>): void;
  info(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
}

export const silentLogger: LoggerLike = Object.freeze({
  debug() {},
  info() {},
  warn() {},
  error() {},
});
