// `svc-cloud init`: the first organisation, its first location, an organisation API key and,
// given an email and a password, the first person (the organisation's owner). Prints what a
// script needs next as one JSON object. A data folder is initialised once. svc-cloud's
// certificate authority is made here too.
import { Code, SvcError } from "../../../core/index.js";
import { hashPassword } from "../storage/secrets.js";
import { createApiKey } from "../storage/api-keys.js";
import { ensureCertificateAuthority } from "../fleet/certificate-authority.js";
import { addMember, createLocation, createOrganization, createUser } from "../storage/fleet.js";
import type { Store } from "../storage/open-store.js";
import { lockNamed } from "../storage/write-locks.js";

export interface InitOptions {
  email?: string;
  password?: string;
  now: number;
}

export interface InitResult {
  organization_id: string;
  location_id: string;
  api_key: { id: string; key: string };
}

export const MIN_PASSWORD_LENGTH = 8;

export async function initialise(store: Store, options: InitOptions): Promise<InitResult> {
  const { email, password, now } = options;
  if ((email === undefined) !== (password === undefined)) throw new SvcError(Code.InvalidArgument, "--email and --password go together");
  if (email !== undefined && !/^[^@\s]+@[^@\s]+$/.test(email)) throw new SvcError(Code.InvalidArgument, `--email ${email}: not an email address`);
  if (password !== undefined && password.length < MIN_PASSWORD_LENGTH) throw new SvcError(Code.InvalidArgument, `--password: at least ${MIN_PASSWORD_LENGTH} characters`);
  return store.db.transaction().execute(async (tx) => {
    await lockNamed(tx, "accounts");
    const existing = await tx.selectFrom("organizations").select("id").executeTakeFirst();
    if (existing !== undefined) throw new SvcError(Code.AlreadyExists, `this data folder is already initialised (organisation ${existing.id})`);
    const organizationId = await createOrganization(tx, { name: "svc", now });
    const locationId = await createLocation(tx, { organizationId, name: "main", now });
    if (email !== undefined) {
      const userId = await createUser(tx, { email: email.toLowerCase(), passwordHash: hashPassword(password!), now });
      await addMember(tx, { organizationId, userId, role: "owner", now });
    }
    const key = await createApiKey(tx, { organizationId, name: "svc-cloud init", scope: "organization", scopeId: organizationId, now });
    await ensureCertificateAuthority(tx, now);
    return { organization_id: organizationId, location_id: locationId, api_key: key };
  });
}
