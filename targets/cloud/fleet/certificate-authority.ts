// svc-cloud's certificate authority and the parts' certificates, kept in the store. The authority
// is made once (at `svc-cloud init`, or at the first start of a data folder made before there
// was one); a part's certificate is issued at its first request and issued again when its names
// change or it nears its end.
import type { Kysely } from "kysely";
import { issueCertificate, makeAuthority, type IssuedCertificate } from "./x509-certificates.js";
import type { CertificateAuthorityTable, Tables } from "../storage/tables.js";

const AUTHORITY_ID = "svc-cloud";
/** A part's certificate is replaced once it has less than this left. */
const RENEW_BEFORE_MS = 30 * 24 * 60 * 60_000;

/** The authority, made now when the store has none. Two processes racing keep the first one's. */
export async function ensureCertificateAuthority(db: Kysely<Tables>, now: number): Promise<CertificateAuthorityTable> {
  const existing = await db.selectFrom("certificate_authority").selectAll().where("id", "=", AUTHORITY_ID).executeTakeFirst();
  if (existing !== undefined) return existing;
  const made = makeAuthority("svc-cloud certificate authority", now);
  await db
    .insertInto("certificate_authority")
    .values({ id: AUTHORITY_ID, certificate_pem: made.certificatePem, private_key_pem: made.privateKeyPem, created_at: now })
    .onConflict((c) => c.column("id").doNothing())
    .execute();
  return db.selectFrom("certificate_authority").selectAll().where("id", "=", AUTHORITY_ID).executeTakeFirstOrThrow();
}

/** The part's certificate for `names`: the kept one while it fits, else a new one. */
export async function certificateForPart(db: Kysely<Tables>, partId: string, names: readonly string[], now: number): Promise<IssuedCertificate> {
  const kept = await db.selectFrom("part_certificates").selectAll().where("part_id", "=", partId).executeTakeFirst();
  if (kept !== undefined && kept.names === JSON.stringify(names) && Number(kept.not_after) - RENEW_BEFORE_MS > now) {
    return { certificatePem: kept.certificate_pem, privateKeyPem: kept.private_key_pem, notAfter: Number(kept.not_after) };
  }
  const authority = await ensureCertificateAuthority(db, now);
  const issued = issueCertificate({ certificatePem: authority.certificate_pem, privateKeyPem: authority.private_key_pem }, names, now);
  const row = { names: JSON.stringify(names), certificate_pem: issued.certificatePem, private_key_pem: issued.privateKeyPem, not_after: issued.notAfter, created_at: now };
  await db
    .insertInto("part_certificates")
    .values({ part_id: partId, ...row })
    .onConflict((c) => c.column("part_id").doUpdateSet(row))
    .execute();
  return issued;
}
