// How the store reads PostgreSQL's values back. `pg` answers a bigint (the store's times, sizes and
// ids, and every count) and a numeric (a sum) as text, since not every one fits a JavaScript
// number; the store's columns mean numbers (tables.ts), and theirs all fit, so they are read as
// numbers. One that would not fit is read as a BigInt rather than rounded: a number is never
// silently wrong. Set per pool, never on `pg`'s shared defaults.
import pg from "pg";

const INT8 = 20;
const NUMERIC = 1700;

function parseInt8(text: string): number | bigint {
  const value = Number(text);
  return Number.isSafeInteger(value) ? value : BigInt(text);
}

function parseNumeric(text: string): number | string {
  const value = Number(text);
  return /^-?\d+$/.test(text) && Number.isSafeInteger(value) ? value : text;
}

export const storeTypes: pg.CustomTypesConfig = {
  getTypeParser: ((oid: number, format?: "text" | "binary") => {
    if (format !== "binary" && oid === INT8) return parseInt8;
    if (format !== "binary" && oid === NUMERIC) return parseNumeric;
    return pg.types.getTypeParser(oid, format);
  }) as pg.CustomTypesConfig["getTypeParser"],
};
