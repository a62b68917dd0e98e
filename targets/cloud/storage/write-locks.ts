// What keeps two writers from both winning a read-then-write. On SQLite a transaction takes the
// database's one write lock when it begins (immediate-sqlite-dialect.ts), so every transaction is
// already alone and these do nothing. On PostgreSQL transactions run side by side (several
// replicas, one pool each), so a transaction that reads and then writes on what it read takes the
// lock that matters first, and a second one waits for it and then reads what the first wrote:
// - an organisation's row (FOR NO KEY UPDATE, so rows that only reference it are never held up):
//   its machines' and parts' names, configs and revisions, fragments and people change one
//   transaction at a time, which keeps a name unique in its location, a revision number unused, a
//   fragment's users' revisions in step with it, and the last owner an owner;
// - a named lock (transaction-scoped advisory) where no row exists yet to lock: people's accounts
//   (an email is one person; the first owner is first), the release index, and the signing key
//   (one replica rotates it).
// Named locks are taken before a row lock, never after, so two transactions never wait on each
// other in opposite orders.
import type { ExpressionBuilder, Kysely } from "kysely";
import { Code, SvcError } from "../../../core/index.js";
import { NAMED_LOCK_CLASS } from "./postgres-locks.js";
import { isPostgres } from "./store-dialect.js";
import type { Tables } from "./tables.js";

export type OrganizationOf = { organizationId: string } | { locationId: string } | { machineId: string } | { partId: string };

export type NamedLock = "accounts" | "releases" | "signing-keys";

/** Holds the organisation (given, or of the location, machine or part given) until the transaction ends. */
export async function lockOrganization(tx: Kysely<Tables>, of: OrganizationOf): Promise<void> {
  if (!isPostgres(tx)) return;
  requireTransaction(tx);
  const organization = tx.selectFrom("organizations").select("id").forNoKeyUpdate();
  await ("organizationId" in of ? organization.where("id", "=", of.organizationId) : organization.where("id", "=", (eb) => ownerOf(eb, of))).execute();
}

/** Holds the named lock until the transaction ends. */
export async function lockNamed(tx: Kysely<Tables>, name: NamedLock): Promise<void> {
  if (!isPostgres(tx)) return;
  requireTransaction(tx);
  await tx.selectNoFrom((eb) => eb.fn("pg_advisory_xact_lock", [eb.lit(NAMED_LOCK_CLASS), eb.fn("hashtext", [eb.val(`svc-cloud:${name}`)])]).as("locked")).execute();
}

/** The organisation of a location, machine or part, as a subquery. */
function ownerOf(eb: ExpressionBuilder<Tables, "organizations">, of: Exclude<OrganizationOf, { organizationId: string }>) {
  if ("locationId" in of) return eb.selectFrom("locations").select("locations.organization_id").where("locations.id", "=", of.locationId);
  if ("machineId" in of) return eb.selectFrom("machines").select("machines.organization_id").where("machines.id", "=", of.machineId);
  return eb.selectFrom("parts").select("parts.organization_id").where("parts.id", "=", of.partId);
}

function requireTransaction(tx: Kysely<Tables>): void {
  if (!tx.isTransaction) throw new SvcError(Code.Internal, "a write lock is taken inside a transaction only: it is held until the transaction ends");
}
