// The PostgreSQL a store may live in, named by a URL (`--database postgres://user@host:port/db`).
// It is checked once, where it is given, so a typo is a message naming it rather than a connection
// error later; and it is shown only without its password.
import { Code, SvcError } from "../../../core/index.js";

/** `text` when it is a postgres:// (or postgresql://) URL naming a database; InvalidArgument otherwise. */
export function checkDatabaseUrl(text: string): string {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new SvcError(Code.InvalidArgument, `--database: not a URL (expected postgres://USER@HOST:PORT/DATABASE)`);
  }
  if (url.protocol !== "postgres:" && url.protocol !== "postgresql:") {
    throw new SvcError(Code.InvalidArgument, `--database ${withoutPassword(text)}: only PostgreSQL is supported (postgres://USER@HOST:PORT/DATABASE)`);
  }
  if (url.hostname === "" || url.pathname.replace(/^\//, "") === "") {
    throw new SvcError(Code.InvalidArgument, `--database ${withoutPassword(text)}: name the host and the database (postgres://USER@HOST:PORT/DATABASE)`);
  }
  return text;
}

/** The URL as it may be printed: its password, if any, replaced by `***`. */
export function withoutPassword(text: string): string {
  try {
    const url = new URL(text);
    if (url.password !== "") url.password = "***";
    return url.toString();
  } catch {
    return "(an unreadable URL)";
  }
}
