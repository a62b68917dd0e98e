// The small language the RobotConfig converter is written in: per kind of object, a table from
// each key svc's config knows to the proto field it becomes (in protobuf's JSON form, so
// `fromJson` does the last step) or to the reason it has none. A key with no field, and a key
// no table knows, is left out of the answer and named in `leftOut` with its path, so nothing
// is dropped without a record of it.
import { Code, parseDuration, SvcError } from "../../../core/index.js";

export type Json = Record<string, unknown>;

export interface Walk {
  /** Paths (`modules[0].version`) of the keys that reached no proto field. */
  leftOut: string[];
}

export type Mapper = (value: unknown, at: string, walk: Walk) => unknown;

/** A key's proto field (and how its value is converted), or why it has none. */
export type Field = { to: string; map?: Mapper } | { none: string };

export type Table = Readonly<Record<string, Field>>;

export function isJson(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The proto JSON of the object `value` at `at`, key by key through `table`. */
export function mapObject(value: unknown, at: string, table: Table, walk: Walk): Json {
  if (!isJson(value)) throw notServable(at, "must be an object");
  const out: Json = {};
  for (const [key, inner] of Object.entries(value)) {
    const field = Object.hasOwn(table, key) ? table[key]! : undefined;
    const path = at === "" ? key : `${at}.${key}`;
    if (field === undefined || "none" in field) {
      walk.leftOut.push(path);
      continue;
    }
    out[field.to] = field.map === undefined ? inner : field.map(inner, path, walk);
  }
  return out;
}

/** A field that keeps its value and its name. */
export const same = (to: string): Field => ({ to });

/** A field holding an object converted through `table`. */
export const object = (to: string, table: Table): Field => ({ to, map: (value, at, walk) => mapObject(value, at, table, walk) });

/** A field holding a list, each entry converted by `map`. */
export function list(to: string, map: Mapper): Field {
  return {
    to,
    map: (value, at, walk) => {
      if (!Array.isArray(value)) throw notServable(at, "must be a list");
      return value.map((entry, i) => map(entry, `${at}[${i}]`, walk));
    },
  };
}

/** A list of objects each converted through `table`. */
export const listOf = (to: string, table: Table): Field => list(to, (entry, at, walk) => mapObject(entry, at, table, walk));

/** A Go-style duration ("1m30s", or Go's nanoseconds as a number) as protobuf's JSON Duration ("90s"). */
export const duration = (to: string): Field => ({
  to,
  map: (value, at) => {
    const ms = typeof value === "number" ? value / 1e6 : typeof value === "string" ? parseDuration(value) : undefined;
    if (ms === undefined) throw notServable(at, `must be a duration such as "10s" (found ${JSON.stringify(value)})`);
    return `${(ms / 1000).toFixed(3).replace(/\.?0+$/, "")}s`;
  },
});

export function notServable(at: string, problem: string): SvcError {
  return new SvcError(Code.FailedPrecondition, `the part's config cannot be served as a RobotConfig: ${at}: ${problem}`);
}
