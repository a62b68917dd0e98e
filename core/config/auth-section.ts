// The `auth` section, read as Viam writes it: one api-key handler whose config holds
// "<key id>": "<key>" entries and `keys`, the list of those ids; or, in the legacy form, keys
// without an id (`key`, or `keys` holding keys). Anything it asks that svc-server cannot give
// exactly is an error here, and parseMachineConfig then yields no configuration at all: a machine
// never runs with less authentication than its file asks for.
import type { AuthConfig, AuthHandlerConfig } from "./types.js";
import type { ValidatedAuth } from "./validated.js";
import type { IssueList } from "./issue-list.js";
import { hasOwn, type Segment } from "./data-path.js";

type WrittenHandlerConfig = ValidatedAuth["handlers"][number]["config"];

export function buildAuth(auth: ValidatedAuth, originalIndex: (index: number) => number, issues: IssueList): AuthConfig {
  if (auth.external_auth_config !== undefined && auth.external_auth_config !== null) {
    issues.error(
      ["auth", "external_auth_config"],
      "svc-server cannot verify tokens issued elsewhere (a JWKS key set): remove it and give these callers API keys under auth.handlers",
    );
  }
  if ((auth.tls_auth_entities ?? []).length > 0) {
    issues.error(
      ["auth", "tls_auth_entities"],
      "svc-server does not authenticate TLS client certificates: remove it and give these callers API keys under auth.handlers",
    );
  }
  const seen = new Map<string, number>();
  const handlers: AuthHandlerConfig[] = [];
  auth.handlers.forEach((handler, index) => {
    const at = originalIndex(index);
    const first = seen.get(handler.type);
    if (first !== undefined) {
      issues.error(["auth", "handlers", at, "type"], `"${handler.type}" is already configured by auth.handlers[${first}]`);
      return;
    }
    seen.set(handler.type, at);
    handlers.push(apiKeyHandler(handler.config, ["auth", "handlers", at, "config"], issues));
  });
  return { handlers };
}

function apiKeyHandler(written: WrittenHandlerConfig, path: Segment[], issues: IssueList): AuthHandlerConfig {
  // fromEntries makes own properties, so an id such as "__proto__" stays an id.
  const config: Record<string, string> = Object.fromEntries(
    Object.entries(written).filter((entry): entry is [string, string] => entry[0] !== "key" && entry[0] !== "keys" && typeof entry[1] === "string"),
  );
  const withIds = Object.keys(config).length > 0;
  const legacy: string[] = [];
  if (written.key !== undefined) {
    if (withIds) issues.error([...path, "key"], 'a key without an id cannot sit beside "<key id>": "<key>" entries: give it an id');
    else legacy.push(written.key);
  }
  (written.keys ?? []).forEach((listed, i) => {
    if (!withIds) legacy.push(listed);
    else if (!hasOwn(config, listed)) {
      issues.error(
        [...path, "keys", i],
        'names no key id of this handler: beside "<key id>": "<key>" entries, "keys" lists those ids (a key without an id cannot sit beside them)',
      );
    }
  });
  if (!withIds && legacy.length === 0) issues.warning(path, "has no keys, so no API key is accepted");
  return legacy.length > 0 ? { type: "api-key", config, legacy_keys: legacy } : { type: "api-key", config };
}
