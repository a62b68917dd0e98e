// Resource names: an API triplet `namespace:type:subtype` plus a name, printed as
// `rdk:component:motor/left`. Names of resources on remote machines (`remote1:left`, or a remote
// prefix before the API) are reserved: they are recognised and refused with a clear message so
// configurations written for remotes fail loudly rather than resolve to something else.

/** `namespace:type:subtype`, e.g. `rdk:component:motor`. */
export interface ResourceApi {
  namespace: string;
  type: string;
  subtype: string;
}

/** A local resource: its API and its name (the fields of the wire's ResourceName). */
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

/** Why `name` cannot be a resource's simple name, or undefined when it can. */
export function simpleNameProblem(name: string): string | undefined {
  if (isNamePart(name)) return undefined;
  if (name.indexOf(":") >= 0) return remoteProblem(name);
  return `${JSON.stringify(name)}: a name may contain only letters, digits, "_" and "-"`;
}

function remoteProblem(text: string): string {
  return `${JSON.stringify(text)}: names of resources on remote machines (remote:name) are reserved; remotes are not supported yet`;
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
  // A fourth colon-separated part before the API, or one inside the name, is a remote prefix.
  if (apiText.split(":").length > 3 || name.indexOf(":") >= 0) return { ok: false, error: remoteProblem(text) };
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
