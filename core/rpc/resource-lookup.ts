// How an API handler finds the resource a request names. A request carries a simple name
// ("left") or a full one ("rdk:component:motor/left"); the handler knows its API. Whatever is not
// there to serve becomes the error a client can act on: NOT_FOUND when nothing of that name is
// configured, UNAVAILABLE with the resource's last error while it is configured but not READY,
// INVALID_ARGUMENT for a name that is not one or that belongs to another API.
import {
  formatApi,
  formatResourceName,
  parseResourceName,
  simpleNameProblem,
  type Resource,
  type ResourceApi,
} from "../resource/index.js";
import { Code, SvcError } from "../errors/index.js";

/** What the lookup reads: the graph engine fits as it is; the MCU can pass its own table. */
export interface ResourceSource {
  /** The READY resource of that full name, or undefined. */
  resource(fullName: string): Resource | undefined;
  /** The state of a configured resource (with its last error), or undefined when none is configured. */
  resourceStatus(fullName: string): { state: string; error?: string } | undefined;
}

export interface ResourceLookup {
  /** The resource of `api` named `name` (simple or full), or a thrown SvcError saying why not. */
  resource(api: string, name: string): Resource;
}

export function createResourceLookup(source: ResourceSource): ResourceLookup {
  // The handful of APIs served, each split once, so checking a resource's API costs no string.
  const split = new Map<string, ResourceApi>();
  const isOf = (found: Resource, api: string): boolean => {
    let parts = split.get(api);
    if (parts === undefined) {
      const [namespace = "", type = "", subtype = ""] = api.split(":");
      parts = { namespace, type, subtype };
      split.set(api, parts);
    }
    const n = found.name;
    return n.subtype === parts.subtype && n.type === parts.type && n.namespace === parts.namespace;
  };
  return {
    resource(api, name) {
      const fullName = fullNameFor(api, name);
      const found = source.resource(fullName);
      if (found !== undefined) {
        if (!isOf(found, api)) {
          throw new SvcError(Code.InvalidArgument, `${formatResourceName(found.name)} is not a ${api}`);
        }
        return found;
      }
      const status = source.resourceStatus(fullName);
      if (status === undefined) throw new SvcError(Code.NotFound, `no ${api} named ${JSON.stringify(simpleName(name))}`);
      const why = status.error !== undefined && status.error !== "" ? `: ${status.error}` : ` (${status.state})`;
      throw new SvcError(Code.Unavailable, `${fullName} is not ready${why}`);
    },
  };
}

function simpleName(name: string): string {
  const slash = name.indexOf("/");
  return slash < 0 ? name : name.slice(slash + 1);
}

/** The full name a request's `name` stands for under `api`. */
function fullNameFor(api: string, name: string): string {
  if (name === "") throw new SvcError(Code.InvalidArgument, `name: the request names no ${api}`);
  if (name.indexOf("/") < 0) {
    // The common case, a simple name, costs one check of its characters.
    const problem = simpleNameProblem(name);
    if (problem !== undefined) throw new SvcError(Code.InvalidArgument, `name: ${problem}`);
    return `${api}/${name}`;
  }
  const parsed = parseResourceName(name);
  if (!parsed.ok) throw new SvcError(Code.InvalidArgument, `name: ${parsed.error}`);
  const named = formatApi(parsed.value);
  if (named !== api) throw new SvcError(Code.InvalidArgument, `name: ${JSON.stringify(name)} is a ${named}, not a ${api}`);
  return name;
}
