// A small JSON request body, read whole under a bound: what a plain route (signing in) takes. A
// body that is not JSON, not an object, or larger than the bound is refused with a status and a
// message saying which, and nothing past the bound is kept.
import type { HttpRequest } from "./http-routes.js";

export class BodyRefusal extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

export async function readJsonObject(req: HttpRequest, maxBytes: number): Promise<Record<string, unknown>> {
  const type = String(req.headers["content-type"] ?? "").split(";")[0]!.trim().toLowerCase();
  if (type !== "application/json") throw new BodyRefusal(415, "the body must be JSON (Content-Type: application/json)");
  const declared = Number(req.headers["content-length"] ?? NaN);
  if (declared > maxBytes) throw new BodyRefusal(413, `the body is ${declared} bytes; at most ${maxBytes}`);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > maxBytes) throw new BodyRefusal(413, `the body is over ${maxBytes} bytes`);
    chunks.push(chunk);
  }
  let value: unknown;
  try {
    value = JSON.parse(Buffer.concat(chunks).toString("utf8"));
  } catch (thrown) {
    throw new BodyRefusal(400, `the body is not JSON: ${(thrown as Error).message}`);
  }
  if (value === null || typeof value !== "object" || Array.isArray(value)) throw new BodyRefusal(400, "the body must be a JSON object");
  return value as Record<string, unknown>;
}
