// What a remote part lists (its ResourceNames answer), read into the resources this machine joins,
// within bounds a hostile or broken remote cannot push past: at most MAX_LISTED_RESOURCES, names
// this machine can carry (letters, digits, "_" and "-", at most MAX_NAME_CHARS each), reached
// through at most MAX_REMOTE_DEPTH parts (two parts joined to each other would otherwise list each
// other's names again, one part longer at each check), nothing twice. Each is named here by the remote, the parts between, and its name there with the remote's
// prefix (`pi:left`, `pi:arm-pi:cam-left`), and keeps the name the remote itself resolves
// (`left`, `arm-pi:left`). What is left out is said in words. Viam's default services ("builtin")
// are not joined, as viam-server does not join them: every part has its own.
import { fromBinary } from "@bufbuild/protobuf";
import { isNamePart, type RemoteConfig } from "../../../core/index.js";
import { ResourceNamesResponseSchema } from "../../../proto/gen/robot/v1/robot_pb.js";

export const MAX_LISTED_RESOURCES = 1_000;
export const MAX_NAME_CHARS = 256;
export const MAX_REMOTE_DEPTH = 8;
/** The largest ResourceNames answer read: far past 1,000 names of 256 characters. */
export const MAX_LISTING_BYTES = 4 * 1024 * 1024;

const DEFAULT_SERVICE_NAME = "builtin";

export interface ListedResource {
  /** `rdk:component:sensor` */
  readonly api: string;
  /** Its name here: `pi:left`, or `pi:arm-pi:cam-left` through a remote of the remote. */
  readonly name: string;
  /** The name the remote resolves it by without doubt: `left`, `arm-pi:left`. */
  readonly remoteName: string;
}

export interface Listing {
  readonly resources: readonly ListedResource[];
  /** What was left out and why, in words; empty when nothing was. */
  readonly leftOut: readonly string[];
  /** The protobuf service of each API it lists, by service (its ResourceRPCSubtypes, remote-services.ts). */
  readonly services: ReadonlyMap<string, string>;
}

/** The listing in a ResourceNames answer's bytes; throws when they are not one. */
export function readListing(bytes: Uint8Array, remote: Pick<RemoteConfig, "name" | "prefix">): Omit<Listing, "services"> {
  const answer = fromBinary(ResourceNamesResponseSchema, bytes);
  const resources: ListedResource[] = [];
  const seen = new Set<string>();
  let unusable = 0;
  let deep = 0;
  let beyond = 0;
  for (const listed of answer.resources) {
    const path = listed.remotePath;
    const parts = [listed.namespace, listed.type, listed.subtype, listed.name, ...path];
    if (!parts.every(usable)) {
      unusable++;
      continue;
    }
    if (listed.name === DEFAULT_SERVICE_NAME && path.length === 0) continue;
    if (path.length >= MAX_REMOTE_DEPTH) {
      deep++;
      continue;
    }
    const api = `${listed.namespace}:${listed.type}:${listed.subtype}`;
    const remoteName = [...path, listed.name].join(":");
    const key = `${api}/${remoteName}`;
    if (seen.has(key)) continue;
    if (resources.length === MAX_LISTED_RESOURCES) {
      beyond++;
      continue;
    }
    seen.add(key);
    resources.push({ api, remoteName, name: [remote.name, ...path, `${remote.prefix}${listed.name}`].join(":") });
  }
  const leftOut: string[] = [];
  if (beyond > 0) leftOut.push(`it lists ${resources.length + beyond} resources; the first ${MAX_LISTED_RESOURCES} are joined`);
  if (unusable > 0) {
    const carried = `letters, digits, "_" and "-", at most ${MAX_NAME_CHARS} characters`;
    leftOut.push(`${unusable} of its resources have names this machine cannot carry (${carried}) and are not joined`);
  }
  if (deep > 0) {
    leftOut.push(`${deep} of its resources come through more than ${MAX_REMOTE_DEPTH} parts (remotes joined in a loop?) and are not joined`);
  }
  return { resources, leftOut };
}

function usable(part: string): boolean {
  return part.length <= MAX_NAME_CHARS && isNamePart(part);
}

/** Whether two listings join the same resources. */
export function sameResources(a: readonly ListedResource[], b: readonly ListedResource[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i]!.api !== b[i]!.api || a[i]!.name !== b[i]!.name || a[i]!.remoteName !== b[i]!.remoteName) return false;
  return true;
}
