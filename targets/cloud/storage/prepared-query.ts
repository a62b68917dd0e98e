// A query built once and run many times with new values. kysely builds and compiles a query each
// time it runs, and on the hottest paths (every call's key, a machine's Config) that cost as much
// as the database's own work. Here the query is built with stand-ins for its values and compiled
// once per database handle; each run puts the values where the stand-ins were. Only values change
// between runs and they stay bound parameters, so the SQL is never assembled from input, and the
// same works on every dialect kysely compiles for. On PostgreSQL the statement is named too, so the
// server parses and plans it once per connection (named-statements.ts).
import type { Compilable, CompiledQuery, Kysely } from "kysely";
import { nameStatement } from "./named-statements.js";
import { isPostgres } from "./store-dialect.js";
import type { Tables } from "./tables.js";

/** Stands for the query's n-th value while it is built. */
export type Value = { readonly __value: number } & string;

export interface PreparedQuery<Row> {
  /** The rows, with `values` in the places of the stand-ins, in order. */
  all(db: Kysely<Tables>, ...values: unknown[]): Promise<Row[]>;
  first(db: Kysely<Tables>, ...values: unknown[]): Promise<Row | undefined>;
}

/** `build` takes the database and one stand-in per value the query is run with. */
export function preparedQuery<Row>(build: (db: Kysely<Tables>, ...values: Value[]) => Compilable<Row>): PreparedQuery<Row> {
  const arity = build.length - 1;
  const compiled = new WeakMap<Kysely<Tables>, { query: CompiledQuery<Row>; slots: number[] }>();
  const standIns = Array.from({ length: arity }, (_, i) => `\u0000svc-value-${i}\u0000` as Value);

  function compile(db: Kysely<Tables>) {
    const query = build(db, ...standIns).compile();
    if (isPostgres(db)) nameStatement(query.sql);
    const slots = query.parameters.map((p) => standIns.indexOf(p as Value));
    const missing = standIns.findIndex((s) => !query.parameters.includes(s));
    if (missing >= 0) throw new Error(`a prepared query does not use its value ${missing}: ${query.sql}`);
    const made = { query, slots };
    compiled.set(db, made);
    return made;
  }

  async function all(db: Kysely<Tables>, ...values: unknown[]): Promise<Row[]> {
    if (values.length !== arity) throw new Error(`a prepared query takes ${arity} values, not ${values.length}`);
    const { query, slots } = compiled.get(db) ?? compile(db);
    const parameters = slots.map((slot, i) => (slot >= 0 ? values[slot] : query.parameters[i]));
    return (await db.executeQuery<Row>({ ...query, parameters })).rows;
  }

  return { all, first: async (db, ...values) => (await all(db, ...values))[0] };
}
