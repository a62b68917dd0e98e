// The advisory locks svc-cloud takes on PostgreSQL, as the two-int keys PostgreSQL offers: one class
// of svc-cloud's own for the fixed ones (migrating, serving), another for named write locks
// (write-locks.ts), so a name's hash never meets a fixed key.
export const LOCK_CLASS = 0x53564343;
export const NAMED_LOCK_CLASS = 0x5356434e;

/** Held (per session) while a process migrates the schema. */
export const MIGRATING = 1;
/** Held shared by every serving process, exclusively by a restore. */
export const SERVING = 2;
