// Reads a request body with a size limit, and turns JSON or form bodies into plain records with
// errors that say where the body went wrong.
import type { IncomingMessage } from "node:http";

export class RequestBodyError extends Error {
  constructor(
    readonly status: 400 | 413,
    message: string,
    /** The body field at fault, when one is. */
    readonly field?: string,
  ) {
    super(message);
    this.name = "RequestBodyError";
  }
}

/** Reads the whole body as UTF-8; stops reading and fails with 413 past `limit` bytes. */
export function readBody(req: IncomingMessage, limit: number): Promise<string> {
  const declared = Number(req.headers["content-length"]);
  if (Number.isFinite(declared) && declared > limit) {
    req.resume();
    return Promise.reject(new RequestBodyError(413, `request body is larger than ${limit} bytes`));
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let done = false;
    req.on("data", (chunk: Buffer) => {
      if (done) return;
      size += chunk.length;
      if (size > limit) {
        done = true;
        req.resume();
        reject(new RequestBodyError(413, `request body is larger than ${limit} bytes`));
        return;
      }
      chunks.push(chunk);
    });
    req.on("end", () => {
      if (done) return;
      done = true;
      resolve(Buffer.concat(chunks).toString("utf8"));
    });
    req.on("error", (err) => {
      if (done) return;
      done = true;
      reject(new RequestBodyError(400, `request body could not be read: ${err.message}`));
    });
  });
}

/** Parses a JSON object body; a syntax error names the line and column. */
export function parseJsonObject(text: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new RequestBodyError(400, `request body is not valid JSON ${whereJsonFailed(text)}`);
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new RequestBodyError(400, "request body must be a JSON object");
  }
  return value as Record<string, unknown>;
}

/**
 * Finds where JSON text stops being valid, by the same grammar JSON.parse uses, because V8's
 * message only sometimes carries a position.
 */
function whereJsonFailed(text: string): string {
  const at = jsonErrorOffset(text);
  if (at >= text.length) return "(it ends too early)";
  let line = 1;
  let column = 1;
  for (let i = 0; i < at; i++) {
    if (text.charCodeAt(i) === 10) {
      line++;
      column = 1;
    } else column++;
  }
  return `at line ${line}, column ${column} (near ${JSON.stringify(text.slice(at, at + 12))})`;
}

function jsonErrorOffset(text: string): number {
  let i = 0;
  const ws = () => {
    while (i < text.length && " \t\n\r".includes(text[i]!)) i++;
  };
  const fail = (): never => {
    throw i;
  };
  const literal = (word: string) => {
    if (text.startsWith(word, i)) i += word.length;
    else fail();
  };
  const string = () => {
    if (text[i] !== '"') fail();
    i++;
    for (;;) {
      if (i >= text.length) fail();
      const c = text.charCodeAt(i);
      if (c === 34) {
        i++;
        return;
      }
      if (c < 0x20) fail();
      if (c === 92) {
        i++;
        const e = text[i];
        if (e === "u") {
          if (!/^[0-9a-fA-F]{4}$/.test(text.slice(i + 1, i + 5))) fail();
          i += 5;
        } else if (e !== undefined && '"\\/bfnrt'.includes(e)) i++;
        else fail();
      } else i++;
    }
  };
  const number = () => {
    const match = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/.exec(text.slice(i));
    if (!match || match[0].length === 0) fail();
    i += match![0].length;
  };
  const value = (): void => {
    ws();
    const c = text[i];
    if (c === "{") {
      i++;
      ws();
      if (text[i] === "}") {
        i++;
        return;
      }
      for (;;) {
        ws();
        string();
        ws();
        if (text[i] !== ":") fail();
        i++;
        value();
        ws();
        if (text[i] === ",") i++;
        else if (text[i] === "}") {
          i++;
          return;
        } else fail();
      }
    } else if (c === "[") {
      i++;
      ws();
      if (text[i] === "]") {
        i++;
        return;
      }
      for (;;) {
        value();
        ws();
        if (text[i] === ",") i++;
        else if (text[i] === "]") {
          i++;
          return;
        } else fail();
      }
    } else if (c === '"') string();
    else if (c === "t") literal("true");
    else if (c === "f") literal("false");
    else if (c === "n") literal("null");
    else number();
  };
  try {
    value();
    ws();
    return i;
  } catch (offset) {
    if (typeof offset === "number") return offset;
    throw offset;
  }
}

/** Parses an `application/x-www-form-urlencoded` body (the page's form when JavaScript is off). */
export function parseFormBody(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of new URLSearchParams(text)) out[key] = value;
  return out;
}

/** A string field of a JSON body; absent means "", any other type is the caller's mistake. */
export function stringField(body: Record<string, unknown>, field: string): string {
  const value = body[field];
  if (value === undefined || value === null) return "";
  if (typeof value !== "string") throw new RequestBodyError(400, `${field}: must be a string`, field);
  return value;
}
