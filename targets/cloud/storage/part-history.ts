// A part's revisions as history reads them: newest first, within a budget, and one by number.
import type { Kysely } from "kysely";
import type { PartRevisionsTable, Tables } from "./tables.js";

/**
 * The part's newest revisions, newest first: at most `limit`, and no more once their configs
 * together pass `maxCharacters` (the newest is always answered). Pages of configs are read so a
 * long history is never read whole.
 */
export async function recentRevisions(db: Kysely<Tables>, partId: string, limit: number, maxCharacters: number): Promise<PartRevisionsTable[]> {
  const rows: PartRevisionsTable[] = [];
  let characters = 0;
  // None before the first page: a revision is an integer column, which no bound past it may stand
  // for on PostgreSQL.
  let before: number | undefined;
  while (rows.length < limit) {
    const page = await db
      .selectFrom("part_revisions")
      .selectAll()
      .where("part_id", "=", partId)
      .$if(before !== undefined, (q) => q.where("revision", "<", before!))
      .orderBy("revision", "desc")
      .limit(Math.min(20, limit - rows.length))
      .execute();
    for (const row of page) {
      characters += row.config.length;
      if (rows.length > 0 && characters > maxCharacters) return rows;
      rows.push(row);
    }
    if (page.length === 0) return rows;
    before = page[page.length - 1]!.revision;
  }
  return rows;
}

export function findRevision(db: Kysely<Tables>, partId: string, revision: number): Promise<PartRevisionsTable | undefined> {
  return db.selectFrom("part_revisions").selectAll().where("part_id", "=", partId).where("revision", "=", revision).executeTakeFirst();
}
