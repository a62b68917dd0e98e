// kysely's PostgreSQL dialect with one change: what PostgreSQL refuses comes out in svc's error
// model (postgres-error.ts), so a duplicate or a lost race reads the same to the API as any other
// refusal. The connections kysely hands around are the driver's own; only their queries' errors
// are mapped, so transactions, savepoints and releases work on the driver's objects as before.
import { PostgresDialect, type DatabaseConnection, type Driver } from "kysely";
import { fromPostgresError } from "./postgres-error.js";

export class PostgresStoreDialect extends PostgresDialect {
  override createDriver(): Driver {
    const driver = super.createDriver();
    const mapped = new WeakSet<DatabaseConnection>();
    const acquire = driver.acquireConnection.bind(driver);
    driver.acquireConnection = async () => {
      let connection: DatabaseConnection;
      try {
        connection = await acquire();
      } catch (thrown) {
        throw fromPostgresError(thrown);
      }
      return mappingErrors(connection, mapped);
    };
    return driver;
  }
}

/** The connection itself, its queries' errors mapped (kept the same object: the driver releases it by identity). */
function mappingErrors(connection: DatabaseConnection, mapped: WeakSet<DatabaseConnection>): DatabaseConnection {
  if (mapped.has(connection)) return connection;
  const executeQuery = connection.executeQuery.bind(connection);
  connection.executeQuery = async (query) => {
    try {
      return await executeQuery(query);
    } catch (thrown) {
      throw fromPostgresError(thrown);
    }
  };
  mapped.add(connection);
  return connection;
}
