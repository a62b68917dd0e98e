// The `Headers` a call's interceptors and handler see on the lean path: a view over a plain
// record (Node's incoming headers, or the record the answer is written from) instead of a
// WHATWG `Headers` built and copied per call. It answers what `Headers` answers for the names a
// call reads and writes (get, set, append, has, delete, iteration); names are lower case, as
// Node gives them and as HTTP/2 requires. Pseudo-headers (":path") are not headers to a handler.
export type HeaderRecord = Record<string, string | string[] | undefined>;

export class RecordHeaders {
  constructor(readonly record: HeaderRecord = {}) {}

  get(name: string): string | null {
    const value = this.record[name.toLowerCase()];
    if (value === undefined) return null;
    return typeof value === "string" ? value : value.join(", ");
  }

  has(name: string): boolean {
    return this.record[name.toLowerCase()] !== undefined;
  }

  set(name: string, value: string): void {
    this.record[name.toLowerCase()] = String(value);
  }

  append(name: string, value: string): void {
    const key = name.toLowerCase();
    const old = this.get(key);
    this.record[key] = old === null ? String(value) : `${old}, ${value}`;
  }

  delete(name: string): void {
    delete this.record[name.toLowerCase()];
  }

  forEach(fn: (value: string, name: string, parent: this) => void): void {
    for (const [name, value] of this.entries()) fn(value, name, this);
  }

  *entries(): IterableIterator<[string, string]> {
    for (const name of Object.keys(this.record).sort()) {
      if (name.startsWith(":")) continue;
      const value = this.get(name);
      if (value !== null) yield [name, value];
    }
  }

  *keys(): IterableIterator<string> {
    for (const [name] of this.entries()) yield name;
  }

  *values(): IterableIterator<string> {
    for (const [, value] of this.entries()) yield value;
  }

  [Symbol.iterator](): IterableIterator<[string, string]> {
    return this.entries();
  }

  getSetCookie(): string[] {
    const value = this.record["set-cookie"];
    return value === undefined ? [] : typeof value === "string" ? [value] : [...value];
  }
}

/** A record seen as `Headers`, for code typed against the WHATWG class. */
export function recordHeaders(record?: HeaderRecord): Headers {
  return new RecordHeaders(record) as unknown as Headers;
}

/** The record behind headers made by recordHeaders; a copy of any other `Headers`. */
export function headerRecord(headers: Headers): HeaderRecord {
  if (headers instanceof RecordHeaders) return headers.record;
  const record: HeaderRecord = {};
  headers.forEach((value, name) => (record[name] = value));
  return record;
}
