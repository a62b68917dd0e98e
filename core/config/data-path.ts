// Where a value sits in a configuration: a list of segments (numbers index arrays, strings key
// objects), printed the way users write it: `agent.additional_networks.home.priority`,
// `components[2].attributes`, `auth.handlers[0].config["my key"]`.

export type Segment = string | number;
export type DataPath = readonly Segment[];

const plainKey = /^[A-Za-z0-9_-]+$/;

export function formatPath(path: DataPath): string {
  let out = "";
  for (const segment of path) {
    if (typeof segment === "number") out += `[${segment}]`;
    else if (!plainKey.test(segment)) out += `[${JSON.stringify(segment)}]`;
    else out += out === "" ? segment : `.${segment}`;
  }
  return out;
}

/** The segments of a JSON pointer (`/components/2/name`); indices of arrays become numbers. */
export function pointerPath(data: unknown, pointer: string): Segment[] {
  if (pointer === "") return [];
  const path: Segment[] = [];
  let at: unknown = data;
  for (const raw of pointer.slice(1).split("/")) {
    const key = raw.replace(/~1/g, "/").replace(/~0/g, "~");
    if (Array.isArray(at)) {
      const index = Number(key);
      path.push(index);
      at = at[index];
    } else {
      path.push(key);
      at = isRecord(at) && hasOwn(at, key) ? at[key] : undefined;
    }
  }
  return path;
}

export function valueAt(data: unknown, path: DataPath): unknown {
  let at = data;
  for (const segment of path) {
    if (Array.isArray(at) && typeof segment === "number") at = at[segment];
    else if (isRecord(at) && typeof segment === "string" && hasOwn(at, segment)) at = at[segment];
    else return undefined;
  }
  return at;
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

export function hasOwn(object: object, key: string): boolean {
  return Object.prototype.hasOwnProperty.call(object, key);
}
