// Fetches the release index from an http, https or file URL and parses it. Whatever goes wrong
// (unreachable, an HTTP error, a timeout, broken JSON) becomes a ReleaseError naming the URL and,
// for JSON, the line and column.
import { readFile } from "node:fs/promises";
import { httpGet, type HttpAnswer } from "./http-get.js";
import { fileURLToPath } from "node:url";
import { jsonSyntaxProblem, parseReleaseIndex, type ParsedReleaseIndex } from "../../../../core/index.js";
import { ReleaseError, reasonOf } from "./release-error.js";

export interface FetchIndexOptions {
  /** Gives up after this long. Default 30 s. */
  timeoutMs?: number;
}

async function readText(url: URL, timeoutMs: number): Promise<string> {
  if (url.protocol === "file:") {
    try {
      return await readFile(fileURLToPath(url), "utf8");
    } catch (e) {
      throw new ReleaseError(`release index ${url.href}: cannot read: ${reasonOf(e)}`, { cause: e });
    }
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new ReleaseError(`release index ${url.href}: only http, https and file URLs are supported`);
  }
  let response: HttpAnswer;
  try {
    response = await httpGet(url, { signal: AbortSignal.timeout(timeoutMs), headers: { accept: "application/json" } });
  } catch (e) {
    const why = (e as Error).name === "TimeoutError" ? `no answer within ${timeoutMs} ms` : reasonOf(e);
    throw new ReleaseError(`release index ${url.href}: ${why}`, { cause: e });
  }
  if (response.status < 200 || response.status > 299) {
    response.cancel();
    throw new ReleaseError(`release index ${url.href}: the server answered HTTP ${response.status} ${response.statusText}`.trimEnd());
  }
  try {
    return await response.text();
  } catch (e) {
    throw new ReleaseError(`release index ${url.href}: the answer was cut short: ${reasonOf(e)}`, { cause: e });
  }
}

export async function fetchReleaseIndex(url: string, options: FetchIndexOptions = {}): Promise<ParsedReleaseIndex> {
  let parsedUrl: URL;
  try {
    parsedUrl = new URL(url);
  } catch {
    throw new ReleaseError(`release index ${JSON.stringify(url)}: not a URL`);
  }
  const text = await readText(parsedUrl, options.timeoutMs ?? 30_000);
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    throw new ReleaseError(`release index ${parsedUrl.href}: not valid JSON: ${jsonSyntaxProblem(text)}`, { cause: e });
  }
  return parseReleaseIndex(json, parsedUrl.href);
}
