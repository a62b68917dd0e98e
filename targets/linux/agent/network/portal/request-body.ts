// Reads a request body with a size limit, and turns JSON or form bodies into plain records with
// errors that say where the body went wrong. A body is read only when it says it is what the
// endpoint takes: JSON as `application/json`, which a page on another site cannot send without
// the browser asking first (a CORS preflight this server never grants), so a cross-site form
// cannot reach the JSON endpoints with a `text/plain` body that happens to be JSON.
import { jsonSyntaxProblem } from "../../../../../core/index.js";
import type { IncomingMessage } from "node:http";

export class RequestBodyError extends Error {
  constructor(
    readonly status: 400 | 413 | 415,
    message: string,
    /** The body field at fault, when one is. */
    readonly field?: string,
  ) {
    super(message);
    this.name = "RequestBodyError";
  }
}

/** The media type of the request's body, lower case, without parameters ("" when not given). */
export function mediaTypeOf(req: IncomingMessage): string {
  return (req.headers["content-type"] ?? "").split(";")[0]!.trim().toLowerCase();
}

/** Refuses (415, unread) a body that is not of the media type the endpoint takes. */
export function requireMediaType(req: IncomingMessage, wanted: string): void {
  const given = mediaTypeOf(req);
  if (given === wanted) return;
  req.resume();
  throw new RequestBodyError(415, `the request body must be sent as Content-Type: ${wanted}${given ? `, not ${given}` : " (none was given)"}`);
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
    throw new RequestBodyError(400, `request body is not valid JSON: ${jsonSyntaxProblem(text)}`);
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new RequestBodyError(400, "request body must be a JSON object");
  }
  return value as Record<string, unknown>;
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
