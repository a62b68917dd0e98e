// What every answer of the control page's endpoints shares: JSON that is never cached nor
// sniffed, refusals that say what to do in words, and request bodies read only up to a bound
// (a larger one is refused as soon as it passes it, and the rest is never read).
import type { HttpRequest, HttpResponse } from "../transport/index.js";

/** Why a request is not answered: the HTTP status and the words a person reads. */
export class PageRefusal extends Error {
  override name = "PageRefusal";
  constructor(
    readonly status: number,
    message: string,
    /** More for the page to show (the problems of a refused configuration, each at its path). */
    readonly details: Record<string, unknown> = {},
  ) {
    super(message);
  }
}

export function sendJson(res: HttpResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    "content-type": "application/json; charset=utf-8",
    "content-length": Buffer.byteLength(text),
    "cache-control": "no-store",
    "x-content-type-options": "nosniff",
  });
  res.end(text);
}

/** Answers a refusal as `{ error }`; anything else thrown is not the person's doing and goes on up. */
export function answerRefusal(res: HttpResponse, thrown: unknown): void {
  if (!(thrown instanceof PageRefusal)) throw thrown;
  sendJson(res, thrown.status, { ...thrown.details, error: thrown.message });
}

/** The body as text, refused with 413 once it passes `maxBytes` (a declared length above it is refused before reading). */
export async function readBoundedText(req: HttpRequest, maxBytes: number): Promise<string> {
  const tooLarge = () => new PageRefusal(413, `the request body is larger than ${maxBytes} bytes, the most this endpoint takes; nothing was changed`);
  const declared = Number(req.headers["content-length"] ?? "0");
  if (declared > maxBytes) throw tooLarge();
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    total += chunk.length;
    if (total > maxBytes) throw tooLarge();
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString("utf8");
}

/** The query parameter `name` of the request's URL, or undefined. */
export function queryParam(req: HttpRequest, name: string): string | undefined {
  const url = new URL(req.url ?? "/", "http://page.invalid");
  return url.searchParams.get(name) ?? undefined;
}
