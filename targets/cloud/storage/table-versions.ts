// Which tables may have changed since a read, for what is kept between calls. Every call a machine
// makes looks up its key, and every Config checks the revisions of the fragments it merged; the
// answer is almost always what it was a moment ago. A read kept here is used again only while
// nothing may have changed the tables it read:
// - this process's own writes are seen as kysely runs them (the plugin): an insert, update or
//   delete marks its table, before it runs and again after, and anything else that is not a
//   select (raw SQL, a schema change) marks every table;
// - other processes' writes to the same file (the command line, a restore) are seen by SQLite's
//   `data_version`, which changes whenever another connection commits: then every table is marked;
// - on PostgreSQL another replica or the command line may commit at any moment: for the tables
//   the database's triggers watch (`heard`), they tell every listening replica which table was
//   written (fleet/foreign-writes.ts marks it), and `dataVersion` says whether this replica hears
//   them; while it does not (no channel, or its connection lost) every stamp marks every table,
//   and a stamp of a table no trigger watches always marks it: a read kept there is never
//   answered again, and what is answered is never stale.
// A mark is a step of one counter, so a stamp taken before a read tells afterwards whether
// anything it read may have changed. A read inside a transaction is never kept: what it saw may
// yet be rolled back.
import {
  DeleteQueryNode,
  InsertQueryNode,
  SelectQueryNode,
  TableNode,
  UpdateQueryNode,
  type KyselyPlugin,
  type PluginTransformQueryArgs,
  type PluginTransformResultArgs,
  type QueryResult,
  type RootOperationNode,
  type UnknownRow,
} from "kysely";

export interface TableVersions {
  /** A stamp of `tables` now: the same later only if none of them may have changed in between. */
  stamp(tables: readonly string[]): number;
  /** Marks what this process's queries write; given to kysely as a plugin. */
  readonly plugin: KyselyPlugin;
  /** Marks `tables` (every table when undefined) as written by another process. */
  foreign(tables: readonly string[] | undefined): void;
}

/**
 * `dataVersion` answers SQLite's `PRAGMA data_version` (or another store's sign of a foreign
 * change); without one, another process may have changed anything before each stamp.
 */
/**
 * With `heard`, `dataVersion` stands only for writes to those tables (another process's writes to
 * them are marked through `foreign`); a stamp of any other table marks it, as if just written.
 */
export function createTableVersions(dataVersion?: () => unknown, heard?: ReadonlySet<string>): TableVersions {
  let counter = 0;
  const changed = new Map<string, number>();
  let everything = 0;
  let foreign = dataVersion?.();
  // kysely names a query to the plugin after it ran by its id: what it writes, noted before.
  const running = new WeakMap<object, string[] | undefined>();

  const mark = (tables: readonly string[] | undefined): void => {
    const step = ++counter;
    if (tables === undefined) everything = step;
    else for (const table of tables) changed.set(table, step);
  };

  return {
    stamp(tables) {
      const now = dataVersion?.();
      if (dataVersion === undefined || now !== foreign) {
        foreign = now;
        mark(undefined);
      }
      const unheard = heard === undefined ? [] : tables.filter((table) => !heard.has(table));
      if (unheard.length > 0) mark(unheard);
      let latest = everything;
      for (const table of tables) latest = Math.max(latest, changed.get(table) ?? 0);
      return latest;
    },
    foreign: mark,
    plugin: {
      transformQuery({ node, queryId }: PluginTransformQueryArgs): RootOperationNode {
        if (SelectQueryNode.is(node)) return node;
        const tables = written(node);
        running.set(queryId, tables);
        mark(tables);
        return node;
      },
      async transformResult({ queryId, result }: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
        // Again once it has run: a stamp taken while it waited its turn does not stand for after it.
        if (running.has(queryId)) mark(running.get(queryId));
        return result;
      },
    },
  };
}

/** The tables a write names, or undefined when that cannot be told (every table is marked then). */
function written(node: RootOperationNode): string[] | undefined {
  if (InsertQueryNode.is(node)) return node.into === undefined ? undefined : [node.into.table.identifier.name];
  if (UpdateQueryNode.is(node)) return node.table !== undefined && TableNode.is(node.table) ? [node.table.table.identifier.name] : undefined;
  if (DeleteQueryNode.is(node)) {
    const froms = node.from.froms;
    return froms.every((from) => TableNode.is(from)) ? froms.map((from) => (from as TableNode).table.identifier.name) : undefined;
  }
  return undefined;
}
