// The statements PostgreSQL keeps parsed and planned on each connection: those of the prepared
// queries (prepared-query.ts), the fixed-shape reads and writes every machine's calls make. Any
// other statement goes unnamed, parsed and planned at each run, so a query whose text varies (a
// list of ids) never piles up statements on the server. A named statement saves the server most
// of its work on a small query (a join planned anew costs more than running it).
//
// A replica still running while another migrates may find a statement it named reading a table
// whose columns changed: PostgreSQL then refuses it ("cached plan must not change result type");
// the statement is run again unnamed, and goes unnamed from then on in this process.
import pg from "pg";

const names = new Map<string, string>();

/** Names `text`'s statement from now on, on every connection of this process. */
export function nameStatement(text: string): void {
  if (!names.has(text)) names.set(text, `svc_${names.size + 1}`);
}

/** PostgreSQL's code for a plan whose result's shape changed under it. */
const FEATURE_NOT_SUPPORTED = "0A000";

type Query = (text: unknown, values?: unknown, callback?: unknown) => unknown;

/**
 * pg's client, running a named query's text as the statement of its name. Its connection lost
 * while no statement runs on it (the server restarting while a transaction holds it between two
 * statements) is an 'error' event with no one to hear it, the pool hearing only its idle clients:
 * heard here, it leaves the client unqueryable, so the transaction's next statement fails, and the
 * pool drops the client when it comes back.
 */
export class NamingClient extends pg.Client {
  constructor(config?: pg.ClientConfig) {
    super(config);
    this.on("error", () => undefined);
    const unnamed = this.query.bind(this) as Query;
    const named: Query = (text, values, callback) => {
      const name = typeof text === "string" && callback === undefined ? names.get(text) : undefined;
      if (name === undefined) return unnamed(text, values, callback);
      return (unnamed({ name, text, values }) as Promise<unknown>).catch((thrown: unknown) => {
        if ((thrown as { code?: unknown }).code !== FEATURE_NOT_SUPPORTED) throw thrown;
        names.delete(text as string);
        return unnamed(text, values);
      });
    };
    this.query = named as typeof this.query;
  }
}
