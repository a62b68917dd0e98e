// Which configuration values are secrets, and a copy of a configuration with them masked. Whatever
// logs a configuration (or part of one) passes it through maskSecrets first.

/** Written in place of a secret. */
export const MASK = "<redacted>";

/**
 * Paths of secret values; "*" stands for any array index or object key. A match masks the whole
 * value there, whatever its type.
 */
export const SECRET_PATHS: readonly (readonly string[])[] = [
  ["auth", "handlers", "*", "config"],
  ["cloud", "secret"],
  ["cloud", "api_key", "key"],
  ["cloud", "location_secret"],
  ["cloud", "location_secrets", "*", "secret"],
  ["remotes", "*", "secret"],
  ["remotes", "*", "auth", "credentials", "payload"],
  ["agent", "additional_networks", "*", "psk"],
  ["agent", "network_configuration", "hotspot_password"],
  // A program's environment is where its tokens and passwords are handed to it.
  ["modules", "*", "env", "*"],
  ["processes", "*", "env", "*"],
];

export type PathSegment = string | number;

/** Whether the value at `path` (keys and array indexes from the configuration's root) is a secret. */
export function isSecretPath(path: readonly PathSegment[]): boolean {
  return SECRET_PATHS.some(
    (secret) => secret.length === path.length && secret.every((part, i) => part === "*" || part === String(path[i])),
  );
}

/** A deep copy of `config` with every secret replaced by MASK; the input is left as it was. */
export function maskSecrets<T>(config: T): T {
  return maskAt(config, []) as T;
}

/** Masks the secrets of `value`, which sits at `path` inside a configuration. */
export function maskAt(value: unknown, path: readonly PathSegment[]): unknown {
  if (value === undefined) return value;
  if (isSecretPath(path)) return MASK;
  if (value === null || typeof value !== "object") return value;
  if (Array.isArray(value)) return value.map((item, i) => maskAt(item, path.concat(i)));
  const copy: Record<string, unknown> = {};
  for (const key of Object.keys(value)) copy[key] = maskAt((value as Record<string, unknown>)[key], path.concat(key));
  return copy;
}

/**
 * Field names whose values are never written to a log, wherever they turn up in a log call's
 * fields (at the top level or one level down). A guard for stray secrets: configurations are
 * masked with maskSecrets before they are logged.
 */
export const SECRET_FIELD_NAMES: readonly string[] = ["secret", "location_secret", "psk", "hotspot_password", "password"];

function isSecretFieldName(name: string): boolean {
  switch (name) {
    case "secret":
    case "location_secret":
    case "psk":
    case "hotspot_password":
    case "password":
      return true;
    default:
      return false;
  }
}

function holdsSecretField(value: unknown): boolean {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return false;
  for (const key in value) if (isSecretFieldName(key)) return true;
  return false;
}

/** `fields` itself when it holds no secret field (the usual case), else a copy with them masked. */
export function maskSecretFields<T extends Readonly<Record<string, unknown>>>(fields: T): T {
  for (const key in fields) {
    if (isSecretFieldName(key) || holdsSecretField(fields[key])) return maskFieldsCopy(fields) as T;
  }
  return fields;
}

function maskFieldsCopy(fields: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const copy: Record<string, unknown> = {};
  for (const key in fields) {
    const value = fields[key];
    if (isSecretFieldName(key)) copy[key] = MASK;
    else if (holdsSecretField(value)) {
      const inner: Record<string, unknown> = {};
      for (const innerKey in value as Record<string, unknown>) {
        inner[innerKey] = isSecretFieldName(innerKey) ? MASK : (value as Record<string, unknown>)[innerKey];
      }
      copy[key] = inner;
    } else copy[key] = value;
  }
  return copy;
}
