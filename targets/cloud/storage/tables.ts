// The rows svc-cloud keeps, as kysely sees them. Ids are text (UUIDs), times are integer
// milliseconds since the epoch, booleans are integers 0/1 and JSON is text: the same columns mean
// the same on SQLite and on PostgreSQL.
export type Role = "owner" | "operator" | "viewer";

export interface UsersTable {
  id: string;
  email: string;
  /** scrypt, as `scrypt$N$r$p$salt$hash` (base64url). */
  password_hash: string;
  created_at: number;
}

export interface OrganizationsTable {
  id: string;
  name: string;
  created_at: number;
}

export interface MembershipsTable {
  organization_id: string;
  user_id: string;
  role: Role;
  created_at: number;
}

export interface LocationsTable {
  id: string;
  organization_id: string;
  name: string;
  created_at: number;
}

export interface MachinesTable {
  id: string;
  organization_id: string;
  location_id: string;
  name: string;
  created_at: number;
}

export interface PartsTable {
  id: string;
  machine_id: string;
  organization_id: string;
  name: string;
  main_part: number;
  /** The newest revision of the part's config (part_revisions.revision). */
  revision: number;
  /** Set by MarkPartForRestart, cleared when the part is told. */
  restart_requested: number;
  /** When the part last reached the device API. */
  last_access: number | null;
  /** The versions the part's agent last reported, as JSON ({agent, server, ...}). */
  reported_versions: string | null;
  created_at: number;
  updated_at: number;
}

export interface PartRevisionsTable {
  part_id: string;
  revision: number;
  /** The part's own config (before fragments are merged), JSON text. */
  config: string;
  /** Who made it: a user's email, an API key's id, or "svc-cloud". */
  edited_by: string;
  created_at: number;
}

export type KeyScope = "organization" | "part";

export interface ApiKeysTable {
  id: string;
  organization_id: string;
  name: string;
  /** sha256 of the key, hex. */
  key_hash: string;
  scope: KeyScope;
  /** The part a part key reaches; the organisation id for an organisation key. */
  scope_id: string;
  created_at: number;
  revoked_at: number | null;
}

export interface SigningKeysTable {
  kid: string;
  /** The private key as a JWK, JSON text. */
  private_jwk: string;
  public_jwk: string;
  created_at: number;
  /** After this, new tokens are signed by a newer key; this one still verifies until its tokens expire. */
  retired_at: number | null;
}

/** svc-cloud's own settings by name (e.g. the public URL the service last ran with). */
export interface SettingsTable {
  name: string;
  value: string;
}

export interface Tables {
  users: UsersTable;
  organizations: OrganizationsTable;
  memberships: MembershipsTable;
  locations: LocationsTable;
  machines: MachinesTable;
  parts: PartsTable;
  part_revisions: PartRevisionsTable;
  api_keys: ApiKeysTable;
  signing_keys: SigningKeysTable;
  settings: SettingsTable;
}
