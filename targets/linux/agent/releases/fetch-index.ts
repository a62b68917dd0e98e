// Fetches the release index from an http, https or file URL and parses it. Whatever goes wrong
// (unreachable, an HTTP error, a timeout, an answer past the size limit, broken JSON) becomes a
// ReleaseError naming the URL and, for JSON, the line and column.
import { open } from "node:fs/promises";
import { BodyTooLargeError, httpGet, type HttpAnswer } from "./http-get.js";
import { fileURLToPath } from "node:url";
import { errorMessage, jsonSyntaxProblem, parseReleaseIndex, type ParsedReleaseIndex } from "../../../../core/index.js";
import { ReleaseError } from "./release-error.js";

/** Far more than an index of years of releases; a larger answer is refused unread. */
export const MAX_INDEX_BYTES = 4 * 1024 * 1024;

export interface FetchIndexOptions {
  /** Gives up after this long. Default 30 s. */
  timeoutMs?: number;
  /** Default MAX_INDEX_BYTES. */
  maxBytes?: number;
}

const tooLarge = (url: URL, maxBytes: number) => new ReleaseError(`release index ${url.href}: larger than ${maxBytes} bytes; not read`);

/** Reads at most `maxBytes` of a file: a device path or a fifo named by mistake must not fill memory. */
async function readFileBounded(url: URL, maxBytes: number): Promise<string> {
  let handle;
  try {
    handle = await open(fileURLToPath(url), "r");
  } catch (e) {
    throw new ReleaseError(`release index ${url.href}: cannot read: ${errorMessage(e)}`, { cause: e });
  }
  try {
    const buffer = Buffer.alloc(maxBytes + 1);
    let size = 0;
    for (;;) {
      const { bytesRead } = await handle.read(buffer, size, buffer.length - size, null);
      if (bytesRead === 0) break;
      size += bytesRead;
      if (size > maxBytes) throw tooLarge(url, maxBytes);
    }
    return buffer.subarray(0, size).toString("utf8");
  } catch (e) {
    if (e instanceof ReleaseError) throw e;
    throw new ReleaseError(`release index ${url.href}: cannot read: ${errorMessage(e)}`, { cause: e });
  } finally {
    await handle.close();
  }
}

async function readText(url: URL, timeoutMs: number, maxBytes: number): Promise<string> {
  if (url.protocol === "file:") return readFileBounded(url, maxBytes);
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new ReleaseError(`release index ${url.href}: only http, https and file URLs are supported`);
  }
  let response: HttpAnswer;
  try {
    response = await httpGet(url, { signal: AbortSignal.timeout(timeoutMs), headers: { accept: "application/json" } });
  } catch (e) {
    const why = (e as Error).name === "TimeoutError" ? `no answer within ${timeoutMs} ms` : errorMessage(e);
    throw new ReleaseError(`release index ${url.href}: ${why}`, { cause: e });
  }
  if (response.status < 200 || response.status > 299) {
    response.cancel();
    throw new ReleaseError(`release index ${url.href}: the server answered HTTP ${response.status} ${response.statusText}`.trimEnd());
  }
  try {
    return await response.text(maxBytes);
  } catch (e) {
    if (e instanceof BodyTooLargeError) throw tooLarge(url, maxBytes);
    throw new ReleaseError(`release index ${url.href}: the answer was cut short: ${errorMessage(e)}`, { cause: e });
  }
}

export async function fetchReleaseIndex(url: string, options: FetchIndexOptions = {}): Promise<ParsedReleaseIndex> {
  let parsedUrl: URL;
  try {
    parsedUrl = new URL(url);
  } catch {
    throw new ReleaseError(`release index ${JSON.stringify(url)}: not a URL`);
  }
  const text = await readText(parsedUrl, options.timeoutMs ?? 30_000, options.maxBytes ?? MAX_INDEX_BYTES);
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    throw new ReleaseError(`release index ${parsedUrl.href}: not valid JSON: ${jsonSyntaxProblem(text)}`, { cause: e });
  }
  return parseReleaseIndex(json, parsedUrl.href);
}
