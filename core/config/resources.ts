// Components and services: the API from `api` or from the older `namespace` + `type`, the
// model's full name, names unique per API, and components' frames (frames.ts). A broken entry is
// left out with its issue.
import type { ResourceConfig } from "./types.js";
import type { ValidatedResource } from "./validated.js";
import type { IssueList } from "./issue-list.js";
import type { Segment } from "./data-path.js";
import { shapeAt } from "./messages.js";
import { readEntryFrame, unplacedFrames, type FramedComponent } from "./frames.js";

export type ResourceKind = "component" | "service";

/** A model's full name: a short name such as `fake` is a built-in, `rdk:builtin:fake`. */
export function expandModelName(model: string): string {
  return model.includes(":") ? model : `rdk:builtin:${model}`;
}

/** The API a `namespace` (default "rdk") and `type` stand for: `rdk:component:motor`. */
export function apiFromType(kind: ResourceKind, type: string, namespace = "rdk"): string {
  return `${namespace}:${kind}:${type}`;
}

// Services may leave out the model, as in existing configurations.
const defaultServiceModel = "rdk:builtin:builtin";
const exampleType: Record<ResourceKind, string> = { component: "sensor", service: "generic" };

/** Who already holds a name, by API: api -> name -> `components[1]`. */
export type NameOwners = Map<string, Map<string, string>>;

export function buildResources(
  kind: ResourceKind,
  listKey: "components" | "services",
  entries: ValidatedResource[],
  originalIndex: (index: number) => number,
  owners: NameOwners,
  issues: IssueList,
): ResourceConfig[] {
  const built: ResourceConfig[] = [];
  const framed: FramedComponent[] = [];
  entries.forEach((entry, index) => {
    const path: Segment[] = [listKey, originalIndex(index)];
    const api = resolveApi(kind, entry, path, issues);
    const model = resolveModel(kind, entry, path, issues);
    if (api === undefined || model === undefined) return;
    const frame = readEntryFrame(kind, entry.name, entry.frame, path, issues);
    if (frame === null) return;
    const holders = owners.get(api) ?? new Map<string, string>();
    owners.set(api, holders);
    const holder = holders.get(entry.name);
    if (holder !== undefined) {
      issues.error([...path, "name"], `${JSON.stringify(entry.name)} is already used by ${holder} (${api})`);
      return;
    }
    holders.set(entry.name, `${listKey}[${path[1]}]`);
    const resource: ResourceConfig = {
      name: entry.name,
      api,
      model,
      attributes: entry.attributes,
      depends_on: entry.depends_on,
    };
    if (entry.log_configuration) resource.log_configuration = { level: entry.log_configuration.level };
    if (frame) {
      resource.frame = entry.frame;
      framed.push({ resource, path, frame });
    }
    built.push(resource);
  });
  // Placing frames needs them all: a parent may come after its child.
  const unplaced = unplacedFrames(framed, issues);
  return unplaced.size === 0 ? built : built.filter((resource) => !unplaced.has(resource));
}

function resolveApi(kind: ResourceKind, entry: ValidatedResource, path: Segment[], issues: IssueList) {
  const example = `"rdk:${kind}:${exampleType[kind]}"`;
  if (entry.api === undefined) {
    if (entry.type !== undefined) return apiFromType(kind, entry.type, entry.namespace);
    issues.error([...path, "api"], `is required: an API such as ${example}, or a "type" such as "${exampleType[kind]}"`);
    return undefined;
  }
  const [namespace, family, type] = entry.api.split(":");
  if (family !== kind) {
    issues.error([...path, "api"], `must be a ${kind} API such as ${example} (found ${JSON.stringify(entry.api)})`);
    return undefined;
  }
  for (const [key, written, implied] of [["namespace", entry.namespace, namespace], ["type", entry.type, type]]) {
    if (written !== undefined && written !== implied) {
      issues.error([...path, key!], `${JSON.stringify(written)} disagrees with api ${JSON.stringify(entry.api)}`);
      return undefined;
    }
  }
  return entry.api;
}

function resolveModel(kind: ResourceKind, entry: ValidatedResource, path: Segment[], issues: IssueList) {
  if (entry.model !== undefined) return expandModelName(entry.model);
  if (kind === "service") return defaultServiceModel;
  issues.error([...path, "model"], `is required: ${shapeAt([...path, "model"])}`);
  return undefined;
}
