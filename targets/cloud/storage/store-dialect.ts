// Which database a store's queries go to. The store's modules are written once for both; the few
// places that must differ (a lock PostgreSQL needs and SQLite's single writer makes needless, a
// migration's column type) ask here, and say why where they do.
import { PostgresAdapter } from "kysely";

export function isPostgres(db: { getExecutor(): { readonly adapter: unknown } }): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}
