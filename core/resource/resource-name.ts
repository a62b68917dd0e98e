// Resource names: an API triplet `namespace:type:subtype` plus a name, printed as
// `rdk:component:motor/left`. A resource another part of the machine serves (a remote's) is named
// by the parts it is reached through and its name there, joined by ":" (`pi:left`, or
// `pi:arm-pi:left` through a remote of a remote), as Viam names them; its simple name is the last
// part. Viam's older form with the remote before the API (`pi:rdk:component:motor/left`) is
// refused with the form to write instead.

/** `namespace:type:subtype`, e.g. `rdk:component:motor`. */
export interface ResourceApi {
  namespace: string;
  type: string;
  subtype: string;
}

/** A resource: its API and its name (`left`, or `pi:left` for a remote's), as the wire's ResourceName. */
export interface ResourceName extends ResourceApi {
  name: string;
}

/** `namespace:family:name`, e.g. `rdk:builtin:fake`. */
export interface ModelTriplet {
  namespace: string;
  family: string;
  name: string;
}

export type ParsedName<T> = { ok: true; value: T } | { ok: false; error: string };

/** True for a non-empty run of letters, digits, "_" and "-" (checked by hand: this runs per entry). */
export function isNamePart(text: string): boolean {
  const n = text.length;
  if (n === 0) return false;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    const ok = (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c === 95 || c === 45;
    if (!ok) return false;
  }
  return true;
}

/** True for a remote's resource name: two or more name parts joined by ":" (`pi:left`). */
export function isRemoteName(text: string): boolean {
  if (text.indexOf(":") < 0) return false;
  const parts = text.split(":");
  for (const part of parts) if (!isNamePart(part)) return false;
  return true;
}

/** The part of a name that names the resource on its own: `left` for both `left` and `pi:left`. */
export function lastNamePart(name: string): string {
  const colon = name.lastIndexOf(":");
  return colon < 0 ? name : name.slice(colon + 1);
}

/**
 * Why `name` cannot name a resource without its API (a simple name, or a remote's resource as
 * `remote:name`), or undefined when it can.
 */
export function simpleNameProblem(name: string): string | undefined {
  if (isNamePart(name) || isRemoteName(name)) return undefined;
  return `${JSON.stringify(name)}: a name may contain only letters, digits, "_" and "-"`;
}

function triplet(text: string, what: string, example: string): ParsedName<[string, string, string]> {
  const parts = text.split(":");
  if (parts.length !== 3 || !isNamePart(parts[0]!) || !isNamePart(parts[1]!) || !isNamePart(parts[2]!)) {
    return { ok: false, error: `${JSON.stringify(text)}: ${what} must be three parts of letters, digits, "_" or "-" joined by ":" (like ${example})` };
  }
  return { ok: true, value: parts as [string, string, string] };
}

export function parseApi(text: string): ParsedName<ResourceApi> {
  const t = triplet(text, "an API", "rdk:component:motor");
  if (!t.ok) return t;
  return { ok: true, value: { namespace: t.value[0], type: t.value[1], subtype: t.value[2] } };
}

export function parseModel(text: string): ParsedName<ModelTriplet> {
  const t = triplet(text, "a model", "rdk:builtin:fake");
  if (!t.ok) return t;
  return { ok: true, value: { namespace: t.value[0], family: t.value[1], name: t.value[2] } };
}

/** Reads `namespace:type:subtype/name`. */
export function parseResourceName(text: string): ParsedName<ResourceName> {
  const slash = text.indexOf("/");
  if (slash < 0) return { ok: false, error: `${JSON.stringify(text)}: a full resource name is "<namespace>:<type>:<subtype>/<name>"` };
  const apiText = text.slice(0, slash);
  const name = text.slice(slash + 1);
  // Viam's older form put the remote before the API.
  const apiParts = apiText.split(":");
  if (apiParts.length > 3 && isRemoteName(apiText)) {
    const remote = apiParts.slice(0, -3).join(":");
    return { ok: false, error: `${JSON.stringify(text)}: a remote's resource is named "${apiParts.slice(-3).join(":")}/${remote}:${name}"` };
  }
  const api = parseApi(apiText);
  if (!api.ok) return api;
  const nameProblem = simpleNameProblem(name);
  if (nameProblem !== undefined) return { ok: false, error: nameProblem };
  return { ok: true, value: { namespace: api.value.namespace, type: api.value.type, subtype: api.value.subtype, name } };
}

export function formatApi(api: ResourceApi): string {
  return `${api.namespace}:${api.type}:${api.subtype}`;
}

export function formatResourceName(name: ResourceName): string {
  return `${name.namespace}:${name.type}:${name.subtype}/${name.name}`;
}

/** The full name of the resource a configuration entry describes (`api` is already a triplet there). */
export function fullResourceName(api: string, name: string): string {
  return `${api}/${name}`;
}

/** True when a dependency is written as a full name (`rdk:component:board/b1`) rather than a simple one (`b1`). */
export function isFullNameReference(text: string): boolean {
  return text.indexOf("/") >= 0;
}
