// Where each value of a JSON text is, by its path written the way the config validator writes
// paths (`components[2].attributes`), so a problem the validator finds is shown on its own line.
// For a member of an object the place is its key; for an array's element, where it starts.
// Text that breaks the grammar gives the index where it breaks. Iterative: deep nesting cannot
// overflow the stack; nothing is placed deeper than the validator reads (MAX_CONFIG_DEPTH).
import { formatDataPath, MAX_CONFIG_DEPTH } from "../../core/config/index.js";

type Segment = string | number;

export interface Place {
  from: number;
  to: number;
}

export interface JsonPlaces {
  /** The place of every value, by its formatted path ("" is the whole document). */
  places: Map<string, Place>;
  /** Where the text stops being JSON, when it does. */
  fault?: number;
}

interface Open {
  /** Its formatted path; undefined deeper than anything is placed. */
  path: string | undefined;
  /** The next element's index (arrays) or the key just read (objects). */
  next: number | string | undefined;
  array: boolean;
}

const WHITESPACE = /[ \t\n\r]*/y;
const STRING = /"(?:[^"\\\u0000-\u001f]|\\(?:["\\/bfnrt]|u[0-9A-Fa-f]{4}))*"/y;
const SCALAR = /true|false|null|-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?/y;

function match(pattern: RegExp, text: string, at: number): number | undefined {
  pattern.lastIndex = at;
  return pattern.test(text) ? pattern.lastIndex : undefined;
}

export function jsonPlaces(text: string): JsonPlaces {
  const places = new Map<string, Place>();
  const stack: Open[] = [];
  let i = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  let expect: "value" | "key" | "colon" | "next" = "value";
  let keyPlace: Place | undefined;

  // Where the value about to be read sits in the document, and its place recorded.
  const enter = (from: number, to: number): string | undefined => {
    const top = stack[stack.length - 1];
    if (!top) {
      places.set("", { from, to });
      return "";
    }
    const path = top.path === undefined || stack.length > MAX_CONFIG_DEPTH ? undefined : childPath(top.path, top.next as Segment);
    if (path !== undefined) places.set(path, top.array ? { from, to } : keyPlace!);
    if (top.array) top.next = (top.next as number) + 1;
    return path;
  };

  for (;;) {
    i = match(WHITESPACE, text, i)!;
    const c = text[i];
    if (expect === "value") {
      if (c === "{" || c === "[") {
        const path = enter(i, i + 1);
        stack.push({ path, next: c === "[" ? 0 : undefined, array: c === "[" });
        i = match(WHITESPACE, text, i + 1)!;
        if (text[i] === (c === "{" ? "}" : "]")) {
          stack.pop();
          i++;
          expect = "next";
        } else {
          expect = c === "{" ? "key" : "value";
        }
        continue;
      }
      const end = match(c === '"' ? STRING : SCALAR, text, i);
      if (end === undefined) return { places, fault: i };
      enter(i, end);
      i = end;
      expect = "next";
    } else if (expect === "key") {
      const end = c === '"' ? match(STRING, text, i) : undefined;
      if (end === undefined) return { places, fault: i };
      stack[stack.length - 1]!.next = JSON.parse(text.slice(i, end)) as string;
      keyPlace = { from: i, to: end };
      i = end;
      expect = "colon";
    } else if (expect === "colon") {
      if (c !== ":") return { places, fault: i };
      i++;
      expect = "value";
    } else {
      const top = stack[stack.length - 1];
      if (!top) return i === text.length ? { places } : { places, fault: i };
      if (c === ",") {
        i++;
        expect = top.array ? "value" : "key";
      } else if (c === (top.array ? "]" : "}")) {
        stack.pop();
        i++;
      } else {
        return { places, fault: i };
      }
    }
  }
}

/** A child's path written from its parent's, as formatDataPath writes the whole. */
function childPath(parent: string, segment: Segment): string {
  const piece = formatDataPath([segment]);
  return parent === "" || piece.startsWith("[") ? parent + piece : `${parent}.${piece}`;
}

const PATH_SEGMENT = /\.?([A-Za-z0-9_-]+)|\[(\d+)\]|\[("(?:[^"\\]|\\.)*")\]/y;

/** The segments of a path as the validator writes it; undefined when it is not one. */
export function segmentsOf(path: string): Segment[] | undefined {
  const segments: Segment[] = [];
  PATH_SEGMENT.lastIndex = 0;
  while (PATH_SEGMENT.lastIndex < path.length) {
    const at = PATH_SEGMENT.lastIndex;
    const found = PATH_SEGMENT.exec(path);
    if (!found || found.index !== at) return undefined;
    segments.push(found[1] ?? (found[2] !== undefined ? Number(found[2]) : (JSON.parse(found[3]!) as string)));
  }
  return segments;
}

/** The place of `path`, or of the nearest value holding it when it is not written (a missing key). */
export function placeOf(places: Map<string, Place>, path: string): Place | undefined {
  const exact = places.get(path);
  if (exact) return exact;
  const segments = segmentsOf(path);
  if (!segments) return places.get("");
  for (let length = segments.length - 1; length >= 0; length--) {
    const held = places.get(formatDataPath(segments.slice(0, length)));
    if (held) return held;
  }
  return undefined;
}
