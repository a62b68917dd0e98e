// Collects configuration issues as they are found and hands them back in document order: the
// order in which their keys appear in the user's file (parents before children, keys that are
// missing after the ones present), so a listing reads top to bottom whatever check found it.
import type { ConfigIssue, IssueSeverity } from "./types.js";
import { formatPath, hasOwn, isRecord, type DataPath } from "./data-path.js";

export interface IssueList {
  error(path: DataPath, message: string): void;
  warning(path: DataPath, message: string): void;
  /** Whether an error was found at or under `place`: a top-level key, or a path from the top. */
  hasErrorUnder(place: string | DataPath): boolean;
  /** The issues, sorted by where they are in the document (the input as parsed, untouched). */
  inDocumentOrder(document: () => unknown): ConfigIssue[];
}

interface Found {
  path: DataPath;
  message: string;
  severity: IssueSeverity;
}

export function createIssueList(): IssueList {
  const found: Found[] = [];
  const seen = new Set<string>();
  const add = (severity: IssueSeverity) => (path: DataPath, message: string) => {
    const key = `${formatPath(path)}\u0000${message}`;
    if (seen.has(key)) return;
    seen.add(key);
    found.push({ path: path.slice(), message, severity });
  };
  return {
    error: add("error"),
    warning: add("warning"),
    hasErrorUnder(place) {
      const prefix = typeof place === "string" ? [place] : place;
      return found.some((f) => f.severity === "error" && prefix.every((key, i) => f.path[i] === key));
    },
    inDocumentOrder(document) {
      const parsed = found.length > 1 ? document() : undefined;
      const keyed = found.map((f, sequence) => ({ f, sequence, key: documentPosition(parsed, f.path) }));
      keyed.sort((a, b) => comparePositions(a.key, b.key) || a.sequence - b.sequence);
      return keyed.map(({ f }) => ({ path: formatPath(f.path), message: f.message, severity: f.severity }));
    },
  };
}

// Each segment's position among its siblings; a key absent from the document sorts after the
// present ones, by name.
type Position = Array<[number, string]>;

function documentPosition(document: unknown, path: DataPath): Position {
  const position: Position = [];
  let at: unknown = document;
  for (const segment of path) {
    if (typeof segment === "number") {
      position.push([segment, ""]);
      at = Array.isArray(at) ? at[segment] : undefined;
    } else if (isRecord(at) && hasOwn(at, segment)) {
      position.push([Object.keys(at).indexOf(segment), ""]);
      at = at[segment];
    } else {
      position.push([Number.MAX_SAFE_INTEGER, segment]);
      at = undefined;
    }
  }
  return position;
}

function comparePositions(a: Position, b: Position): number {
  for (let i = 0; i < a.length && i < b.length; i++) {
    const [ai, an] = a[i]!;
    const [bi, bn] = b[i]!;
    if (ai !== bi) return ai - bi;
    if (an !== bn) return an < bn ? -1 : 1;
  }
  return a.length - b.length;
}
