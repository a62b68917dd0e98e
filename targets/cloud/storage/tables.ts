// The rows svc-cloud keeps, as kysely sees them. Ids are text (UUIDs), times are integer
// milliseconds since the epoch, booleans are integers 0/1 and JSON is text: the same columns mean
// the same on SQLite and on PostgreSQL.
import type { Generated } from "kysely";

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
  /** When the machine was deleted; its rows stay for its history and logs. */
  deleted_at: number | null;
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
  /** When the part (or its machine) was deleted; its rows stay for its history and logs. */
  deleted_at: number | null;
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

/** An organisation key acts as its owner; a part key is a machine's own; a provisioning key only makes machines. */
export type KeyScope = "organization" | "part" | "provisioning";

export interface ApiKeysTable {
  id: string;
  organization_id: string;
  name: string;
  /** sha256 of the key, hex. */
  key_hash: string;
  scope: KeyScope;
  /** The part a part key reaches; the organisation id for an organisation key; the location a provisioning key makes machines in. */
  scope_id: string;
  created_at: number;
  revoked_at: number | null;
  /** The fragment a provisioning key attaches to each machine it makes; null for other keys. */
  fragment_id: string | null;
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

/** An invitation into an organisation, accepted once, before it expires. */
export interface InvitationsTable {
  id: string;
  organization_id: string;
  email: string;
  role: Role;
  /** sha256 of the token, hex: the token itself is shown once, to whoever invited. */
  token_hash: string;
  /** Who invited (principalName). */
  created_by: string;
  created_at: number;
  expires_at: number;
  accepted_at: number | null;
}

/** A named config piece of an organisation; parts list the ones they use. */
export interface FragmentsTable {
  id: string;
  organization_id: string;
  name: string;
  /** The newest revision's config, JSON text. */
  config: string;
  /** The newest revision (fragment_revisions.revision). */
  revision: number;
  created_at: number;
  updated_at: number;
}

export interface FragmentRevisionsTable {
  fragment_id: string;
  revision: number;
  config: string;
  /** Who made it, as in part_revisions. */
  edited_by: string;
  created_at: number;
}

/** svc-cloud's certificate authority (one row): it issues the parts' certificates. */
export interface CertificateAuthorityTable {
  id: string;
  certificate_pem: string;
  private_key_pem: string;
  created_at: number;
}

/** A part's certificate for its names, reissued when they change or it nears its end. */
export interface PartCertificatesTable {
  part_id: string;
  /** The names it is for, JSON array text. */
  names: string;
  certificate_pem: string;
  private_key_pem: string;
  not_after: number;
  created_at: number;
}

/** A file a part uploaded; its bytes are the file store's `files/<part_id>/<id>` (storage/file-store.ts). */
export interface PartFilesTable {
  id: string;
  part_id: string;
  /** As the uploader named it; never used as a path. */
  file_name: string;
  file_extension: string;
  size: number;
  /** Hex SHA-256 of the bytes. */
  sha256: string;
  created_at: number;
}

/** A piece of a file kept in the database (storage/file-store-database.ts): its key, its place, its bytes. */
export interface FileBlobsTable {
  blob_id: string;
  /** 0, 1, ...: the order of the file's rows. */
  seq: number;
  bytes: Uint8Array;
}

/** svc-cloud's own settings by name (e.g. the public URL the service last ran with). */
export interface SettingsTable {
  name: string;
  value: string;
}

/** One Log call's entries (storage/log-chunk.ts): the unit logs are stored, read and deleted in. */
export interface LogChunksTable {
  /** Assigned by the store; later calls have larger ids. */
  id: Generated<number>;
  part_id: string;
  /** When svc-cloud took the entries in (ms): they are kept LOG_RETENTION_MS from then. */
  received: number;
  /** The oldest and newest entry's time (ms). */
  first_time: number;
  last_time: number;
  /** Bit `1 << level` for each level present (level: an index into LOG_LEVELS). */
  levels: number;
  /** How many entries the body holds. */
  entries: number;
  body: Uint8Array;
}

/** One imported artifact of a release: a product's version for one platform. */
export interface ReleasesTable {
  /** "svc-server" or "agent", as the release index names them. */
  product: string;
  version: string;
  /** "linux/amd64", ... */
  platform: string;
  /** Its file name, and the file store's `releases/<file>`. */
  file: string;
  /** Hex. */
  sha256: string;
  size: number;
  added_at: number;
}

export interface ReleaseChannelsTable {
  product: string;
  /** "stable" or "dev". */
  channel: string;
  version: string;
  updated_at: number;
}

export interface WebSessionsTable {
  /** sha256 of the cookie's token, hex. */
  token_hash: string;
  user_id: string;
  created_at: number;
  last_seen: number;
  /** The latest it may be used (ms), however recently it was. */
  expires_at: number;
}

/** What a part's machine last said of its config (svc.cloud.v1 ReportConfigStatus). */
export interface PartConfigStatusTable {
  part_id: string;
  running_revision: string;
  /** "" when the machine runs the newest revision it was handed. */
  refused_revision: string;
  refused_reason: string;
  reported_at: number;
}

/** A failed sign-in, once for each name it counts against (auth/login-limiter.ts). */
export interface SignInFailuresTable {
  /** "entity:" or "peer:", then the sha256 (hex) of the key id, email or address. */
  name: string;
  /** When it failed (ms). */
  at: number;
}

/** A svc-cloud replica serving the database, and when it last said so (ms). */
export interface ReplicasTable {
  id: string;
  seen_at: number;
}

/** A name a machine answers WebRTC calls for, and the replica holding its Answer stream. */
export interface SignalingAnswerersTable {
  host: string;
  part_id: string;
  machine_id: string;
  organization_id: string;
  replica: string;
  attached_at: number;
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
  invitations: InvitationsTable;
  certificate_authority: CertificateAuthorityTable;
  part_certificates: PartCertificatesTable;
  part_files: PartFilesTable;
  file_blobs: FileBlobsTable;
  fragments: FragmentsTable;
  fragment_revisions: FragmentRevisionsTable;
  log_chunks: LogChunksTable;
  replicas: ReplicasTable;
  signaling_answerers: SignalingAnswerersTable;
  releases: ReleasesTable;
  release_channels: ReleaseChannelsTable;
  web_sessions: WebSessionsTable;
  part_config_status: PartConfigStatusTable;
  sign_in_failures: SignInFailuresTable;
}
