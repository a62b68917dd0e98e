// Every migration, in order. A landed migration is never edited: a change to the schema is a new
// file appended here, so a data folder of any age reaches the newest schema at start-up.
import type { Migration } from "kysely";
import * as core from "./0001-core.js";

export const migrations: Record<string, Migration> = {
  "0001-core": core,
};
