// kysely's SQLite dialect with one change: a transaction takes the write lock when it begins
// (`begin immediate`). svc-cloud's transactions read and then write, and other processes (the
// command line, a backup) write the same file; a deferred transaction that read before another
// process wrote could not then write at all (SQLITE_BUSY_SNAPSHOT, which no busy timeout waits
// out). Taking the lock first makes it wait its turn instead. (On PostgreSQL transactions run side
// by side and take the locks of write-locks.ts where they read and then write.)
import { CompiledQuery, SqliteDialect, type DatabaseConnection, type Driver } from "kysely";

export class ImmediateSqliteDialect extends SqliteDialect {
  override createDriver(): Driver {
    const driver = super.createDriver();
    driver.beginTransaction = async (connection: DatabaseConnection) => {
      await connection.executeQuery(CompiledQuery.raw("begin immediate"));
    };
    return driver;
  }
}
