// The config a part runs: its own current revision, as the device API serves it.
import type { Kysely } from "kysely";
import { currentRevision } from "../storage/revisions.js";
import type { Tables } from "../storage/tables.js";

export interface EffectiveConfig {
  config: Record<string, unknown>;
  revision: number;
  /** When the revision was made (ms). */
  time: number;
}

export async function effectiveConfig(db: Kysely<Tables>, partId: string): Promise<EffectiveConfig> {
  const row = await currentRevision(db, partId);
  return { config: JSON.parse(row.config) as Record<string, unknown>, revision: row.revision, time: Number(row.created_at) };
}
