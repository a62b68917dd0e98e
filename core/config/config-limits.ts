// How big and how deep a configuration may be, checked before anything walks it. Everything after
// parsing (the schema validator, the diff in the log, masking secrets, equality when re-planning,
// the protobuf Struct a module receives) walks values recursively; the depth limit keeps every one
// of those walks far inside any engine's stack, on Node and in XS alike. The text is scanned
// without recursion, so a file nested a million levels deep is refused in words, with its place.
//
// Why 32: attributes reach modules as a protobuf Struct, where each level of JSON costs two
// levels of messages (a Value holding a Struct or a ListValue), and protobuf-es and Python's
// protobuf stop decoding at 100 levels. Attributes start at level 4, so 32 leaves them 28 levels:
// about 60 levels of messages, wherever the Struct sits in a request.
import type { DataPath, Segment } from "./data-path.js";

/** Levels of arrays and objects a configuration may nest: the document itself is level 1. */
export const MAX_CONFIG_DEPTH = 32;

/** Characters (UTF-16 code units) a configuration's text may hold: 4 MiB of ASCII. */
export const MAX_CONFIG_CHARACTERS = 4 * 1024 * 1024;

/** Segments of a too-deep path that are shown: enough to name the attribute (`components[0].attributes.deep`). */
const SHOWN_SEGMENTS = 4;

export interface LimitProblem {
  path: DataPath;
  message: string;
}

export function sizeProblem(characters: number): LimitProblem | undefined {
  if (characters <= MAX_CONFIG_CHARACTERS) return undefined;
  return {
    path: [],
    message: `is ${groupDigits(characters)} characters long; a configuration may have at most ${groupDigits(MAX_CONFIG_CHARACTERS)} characters`,
  };
}

function deepProblem(path: DataPath): LimitProblem {
  return { path: path.slice(0, SHOWN_SEGMENTS), message: `nested deeper than ${MAX_CONFIG_DEPTH} levels` };
}

interface TextFrame {
  array: boolean;
  /** Where the value being read sits in this container: the key just read, or the item's index. */
  at: Segment;
}

/** The tokens that matter for nesting: strings (with their escapes), brackets and commas. */
const TOKENS = /"(?:[^"\\]|\\[\s\S])*"?|[{}[\],]/g;

/**
 * The first place in JSON text where arrays and objects nest deeper than the limit. Text that is
 * not JSON is scanned all the same (JSON.parse judges it afterwards); only brackets outside
 * strings count. One regular expression walks the text: XS finds a character by its position by
 * walking the string from its start, so indexing character by character would be quadratic.
 */
export function nestingProblemInText(text: string): LimitProblem | undefined {
  const frames: TextFrame[] = [];
  let expectKey = false;
  for (const [token] of text.matchAll(TOKENS)) {
    const c = token.charAt(0);
    if (c === '"') {
      if (expectKey && frames.length > 0) frames[frames.length - 1]!.at = readKey(token);
      expectKey = false;
    } else if (c === "{" || c === "[") {
      frames.push({ array: c === "[", at: 0 });
      if (frames.length > MAX_CONFIG_DEPTH) return deepProblem(frames.slice(0, -1).map((f) => f.at));
      expectKey = c === "{";
    } else if (c === "}" || c === "]") {
      frames.pop();
      expectKey = false;
    } else {
      const top = frames[frames.length - 1];
      if (top?.array) top.at = (top.at as number) + 1;
      else expectKey = top !== undefined;
    }
  }
  return undefined;
}

function readKey(quoted: string): string {
  try {
    const key: unknown = JSON.parse(quoted);
    return typeof key === "string" ? key : quoted;
  } catch {
    return quoted;
  }
}

interface DataFrame {
  value: unknown;
  keys: Segment[];
  next: number;
}

/**
 * The first place in data (given as objects rather than text) that nests deeper than the limit.
 * A cycle is not reported here: it is not JSON, which the caller says in its own words.
 */
export function nestingProblemInData(root: unknown): LimitProblem | undefined {
  if (!isContainer(root)) return undefined;
  const frames: DataFrame[] = [frameOf(root)];
  while (frames.length > 0) {
    const top = frames[frames.length - 1]!;
    if (top.next >= top.keys.length) {
      frames.pop();
      continue;
    }
    const key = top.keys[top.next++]!;
    const child = (top.value as Record<Segment, unknown>)[key];
    if (!isContainer(child)) continue;
    if (frames.length >= MAX_CONFIG_DEPTH) {
      if (frames.some((f) => f.value === child)) return undefined;
      return deepProblem(frames.map((f) => f.keys[f.next - 1]!));
    }
    frames.push(frameOf(child));
  }
  return undefined;
}

function isContainer(value: unknown): value is object {
  return typeof value === "object" && value !== null;
}

function frameOf(value: object): DataFrame {
  const keys: Segment[] = Array.isArray(value) ? value.map((_, i) => i) : Object.keys(value);
  return { value, keys, next: 0 };
}

/** 4194304 -> "4,194,304" (no Intl: XS has none). */
function groupDigits(n: number): string {
  const digits = String(Math.floor(n));
  let out = "";
  for (let i = 0; i < digits.length; i++) {
    if (i > 0 && (digits.length - i) % 3 === 0) out += ",";
    out += digits[i];
  }
  return out;
}
