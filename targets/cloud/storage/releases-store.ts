// svc-cloud's release index: the artifacts imported by `svc-cloud release add` and the channels
// that point each product at one version. A product's version for one platform is imported once:
// the same artifact again changes nothing, a different one under the same version is refused, so
// what a machine installed as 1.2.3 stays what 1.2.3 is.
import type { Kysely } from "kysely";
import { Code, SvcError } from "../../../core/index.js";
import type { ReleaseIndex, ReleaseProduct } from "../../../core/agent/index.js";
import type { ReleaseChannelsTable, ReleasesTable, Tables } from "./tables.js";

/**
 * Whether the artifact is already imported (the very same one); AlreadyExists when another
 * artifact is imported under its product, version and platform.
 */
export async function isImported(db: Kysely<Tables>, row: Pick<ReleasesTable, "product" | "version" | "platform" | "sha256">): Promise<boolean> {
  const existing = await db
    .selectFrom("releases")
    .select("sha256")
    .where("product", "=", row.product)
    .where("version", "=", row.version)
    .where("platform", "=", row.platform)
    .executeTakeFirst();
  if (existing === undefined) return false;
  if (existing.sha256 === row.sha256) return true;
  throw new SvcError(
    Code.AlreadyExists,
    `${row.product} ${row.version} for ${row.platform} is already imported with another sha256 (${existing.sha256}); a version is never replaced: package the change as a new version`,
  );
}

/** Adds an artifact; true when it is new, false when the very same one was there. */
export async function addRelease(db: Kysely<Tables>, row: ReleasesTable): Promise<boolean> {
  if (await isImported(db, row)) return false;
  await db.insertInto("releases").values(row).execute();
  return true;
}

export async function listReleases(db: Kysely<Tables>, product?: string): Promise<ReleasesTable[]> {
  let select = db.selectFrom("releases").selectAll();
  if (product !== undefined) select = select.where("product", "=", product);
  const rows = await select.orderBy("product").orderBy("added_at").orderBy("version").orderBy("platform").execute();
  return rows.map((r) => ({ ...r, size: Number(r.size), added_at: Number(r.added_at) }));
}

export async function listChannels(db: Kysely<Tables>, product?: string): Promise<ReleaseChannelsTable[]> {
  let select = db.selectFrom("release_channels").selectAll();
  if (product !== undefined) select = select.where("product", "=", product);
  return select.orderBy("product").orderBy("channel").execute();
}

export async function hasVersion(db: Kysely<Tables>, product: string, version: string): Promise<boolean> {
  const row = await db.selectFrom("releases").select("version").where("product", "=", product).where("version", "=", version).executeTakeFirst();
  return row !== undefined;
}

export async function setChannel(db: Kysely<Tables>, values: { product: string; channel: string; version: string; now: number }): Promise<void> {
  const { product, channel, version, now } = values;
  await db
    .insertInto("release_channels")
    .values({ product, channel, version, updated_at: now })
    .onConflict((c) => c.columns(["product", "channel"]).doUpdateSet({ version, updated_at: now }))
    .execute();
}

/** The artifact stored under `file`, if any release lists it. */
export function releaseByFile(db: Kysely<Tables>, file: string): Promise<ReleasesTable | undefined> {
  return db.selectFrom("releases").selectAll().where("file", "=", file).executeTakeFirst();
}

/** The whole index in the shape svc-agent reads, each artifact's URL under `baseUrl`. */
export async function releaseIndexOf(db: Kysely<Tables>, baseUrl: string): Promise<ReleaseIndex> {
  const index: ReleaseIndex = {};
  const product = (name: string) => (index[name as ReleaseProduct] ??= { channels: {}, versions: {} });
  for (const row of await listReleases(db)) {
    const versions = product(row.product).versions;
    (versions[row.version] ??= {})[row.platform] = { url: `${baseUrl}/${encodeURIComponent(row.file)}`, sha256: row.sha256, size: Number(row.size) };
  }
  for (const row of await listChannels(db)) {
    const channels = product(row.product).channels as Record<string, string>;
    channels[row.channel] = row.version;
  }
  return index;
}
