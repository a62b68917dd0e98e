// What svc-cloud's state is kept in, whichever database holds it: which one it is, the query layer
// (kysely, one set of queries and migrations for SQLite and PostgreSQL), what tells kept reads
// whether they still stand, a consistent copy for backups, and closing.
import type { Kysely } from "kysely";
import type { TableVersions } from "./table-versions.js";
import type { Tables } from "./tables.js";

export interface Store {
  /** Which database holds it: one process's SQLite file, or a PostgreSQL that replicas may share. */
  readonly kind: "sqlite" | "postgres";
  readonly db: Kysely<Tables>;
  /** Whether tables may have changed since a read: for reads kept between calls. */
  readonly versions: TableVersions;
  /**
   * On PostgreSQL: `version` answers the same while no other process wrote a table whose reads are
   * kept (fleet/foreign-writes.ts); until it is given, every read is taken as possibly stale.
   */
  hearForeignWrites?(version: () => unknown): void;
  /** Writes a consistent copy of the whole store to `file` while it is in use. */
  backup(file: string): Promise<void>;
  close(): Promise<void>;
}
