// Downloads an artifact into the cache, resumably, and returns it only once its sha256 (and size)
// match what was asked for. Bytes arrive in `<name>.partial`; an interrupted transfer continues
// from where it stopped with an HTTP Range request (a server that ignores Range sends it all
// again); a file that turns out wrong is deleted. Only a verified file gets its final name, so
// nothing unverified ever leaves the cache. No download grows past its expected size (or, when
// that is unknown, MAX_ARTIFACT_BYTES): a server sending more is cut off and the bytes deleted.
import { createHash, type Hash } from "node:crypto";
import { createReadStream } from "node:fs";
import { mkdir, open, rename, rm, stat } from "node:fs/promises";
import { basename, join } from "node:path";
import { fileURLToPath } from "node:url";
import { errorMessage, sleep, type Clock, type Logger } from "../../../../core/index.js";
import { createNodeClock } from "../../logging/node-clock.js";
import { createDownloadProgress, type ProgressMode } from "./download-progress.js";
import { httpGet, type HttpAnswer } from "./http-get.js";
import { ReleaseError } from "./release-error.js";

export interface DownloadOptions {
  url: string;
  /** Expected sha256 (hex); without it the file is returned with the sha256 it has. */
  sha256?: string;
  /** Expected size in bytes, when known: nothing past it is accepted. */
  size?: number;
  /** The most accepted when the size is not known. Default MAX_ARTIFACT_BYTES. */
  maxBytes?: number;
  cacheDir: string;
  logger: Logger;
  /** "auto" (default): a bar when stderr is a terminal, log lines otherwise. */
  progress?: ProgressMode;
  terminal?: NodeJS.WritableStream & { isTTY?: boolean; columns?: number };
  /** Transfers tried, each continuing the last, before giving up. Default 5. */
  attempts?: number;
  /** Wait between attempts. Default 1 s. */
  retryDelayMs?: number;
  /** A transfer with no byte for this long is abandoned (and resumed). Default 60 s. */
  stallTimeoutMs?: number;
  /** Real time, for the stall timeout and the wait between attempts. Node's by default. */
  clock?: Clock;
}

export interface DownloadedArtifact {
  /** The verified file in the cache. */
  file: string;
  sha256: string;
  bytes: number;
}

/** The largest artifact taken when its size is not known beforehand (a URL artifact): 256 MiB. */
export const MAX_ARTIFACT_BYTES = 256 * 1024 * 1024;

interface Source {
  /** The bytes from `offset` on; `offset` 0 when the source starts over. */
  offset: number;
  total: number | undefined;
  body: AsyncIterable<Uint8Array>;
}

/** A failure worth resuming after (the connection, a timeout, a 5xx), as opposed to a final answer. */
class TransientError extends Error {}

const safeName = (url: string) => {
  const path = url.replace(/[?#].*$/, "");
  const name = basename(path).replace(/[^A-Za-z0-9._-]/g, "_").slice(-100);
  return name === "" || name === "." || name === ".." ? "artifact" : name;
};

const sha256Of = (text: string) => createHash("sha256").update(text).digest("hex");

async function sizeOf(file: string): Promise<number | undefined> {
  try {
    return (await stat(file)).size;
  } catch {
    return undefined;
  }
}

async function hashFile(file: string): Promise<Hash> {
  const hash = createHash("sha256");
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  return hash;
}

async function openHttp(url: string, offset: number, signal: AbortSignal): Promise<Source | "restart" | "complete"> {
  let response: HttpAnswer;
  try {
    response = await httpGet(url, { signal, headers: offset > 0 ? { range: `bytes=${offset}-` } : {} });
  } catch (e) {
    throw new TransientError(errorMessage(e), { cause: e });
  }
  const length = response.header("content-length") ?? null;
  if (response.status === 206) {
    const range = /^bytes (\d+)-(\d+)\/(\d+|\*)$/.exec(response.header("content-range") ?? "");
    if (!range || Number(range[1]) !== offset) {
      response.cancel();
      return "restart";
    }
    return { offset, total: range[3] === "*" ? undefined : Number(range[3]), body: response.body };
  }
  if (response.status === 416) {
    response.cancel();
    const total = /^bytes \*\/(\d+)$/.exec(response.header("content-range") ?? "");
    return total && Number(total[1]) === offset ? "complete" : "restart";
  }
  if (response.status >= 200 && response.status <= 299) {
    return { offset: 0, total: length === null ? undefined : Number(length), body: response.body };
  }
  response.cancel();
  const message = `the server answered HTTP ${response.status} ${response.statusText}`.trimEnd();
  if (response.status >= 500 || response.status === 408 || response.status === 429) throw new TransientError(message);
  throw new ReleaseError(`download ${url}: ${message}`);
}

async function openFile(url: string, offset: number): Promise<Source> {
  const path = fileURLToPath(url);
  const total = await sizeOf(path);
  if (total === undefined) throw new ReleaseError(`download ${url}: no such file`);
  const from = offset <= total ? offset : 0;
  return { offset: from, total, body: createReadStream(path, { start: from }) };
}

/** The bytes received so far in `<name>.partial`, and the sha256 of them. */
interface PartialFile {
  path: string;
  offset: number;
  hash: Hash;
}

/** What one download keeps between its attempts. */
interface Transfer {
  url: string;
  scheme: "http" | "https" | "file";
  options: DownloadOptions;
  clock: Clock;
  /** The most bytes accepted. */
  limit: number;
  partial: PartialFile;
  progress: ReturnType<typeof createDownloadProgress>;
}

export async function downloadArtifact(options: DownloadOptions): Promise<DownloadedArtifact> {
  const { url, cacheDir, logger } = options;
  const expected = options.sha256?.toLowerCase();
  const scheme = /^([a-z]+):/i.exec(url)?.[1]?.toLowerCase();
  if (scheme !== "http" && scheme !== "https" && scheme !== "file") {
    throw new ReleaseError(`download ${url}: only http, https and file URLs are supported`);
  }
  const name = safeName(url);
  const finalName = (sha: string) => join(cacheDir, `${sha.slice(0, 16)}-${name}`);
  await mkdir(cacheDir, { recursive: true });

  // Verified before, and not killed between that and its use: no need to fetch it again.
  if (expected !== undefined) {
    const cached = await verifiedInCache(finalName(expected), expected, options.size);
    if (cached) return cached;
  }

  const partial = await openPartial(join(cacheDir, `${(expected ?? sha256Of(url)).slice(0, 16)}-${name}.partial`), options.size);
  if (partial.offset > 0) logger.info(`resuming the download of ${url} at byte ${partial.offset}`);
  const transfer: Transfer = {
    url,
    scheme,
    options,
    clock: options.clock ?? createNodeClock({ keepAlive: true }),
    limit: options.size ?? options.maxBytes ?? MAX_ARTIFACT_BYTES,
    partial,
    progress: createDownloadProgress({ mode: options.progress ?? "auto", logger, label: name, terminal: options.terminal }),
  };
  await transferAll(transfer);

  const bytes = (await sizeOf(partial.path)) ?? 0;
  transfer.progress.finish(bytes);
  const actual = partial.hash.digest("hex");
  if (options.size !== undefined && bytes !== options.size) {
    await rm(partial.path, { force: true });
    throw new ReleaseError(`download ${url}: got ${bytes} bytes where ${options.size} were expected; the download was deleted`, { kind: "mismatch" });
  }
  if (expected !== undefined && actual !== expected) {
    await rm(partial.path, { force: true });
    throw new ReleaseError(`download ${url}: its sha256 is ${actual}, expected ${expected}; the download was deleted`, { kind: "mismatch" });
  }
  const file = finalName(actual);
  await rename(partial.path, file);
  return { file, sha256: actual, bytes };
}

/** The file verified by an earlier download, if it is still there and still right; removed when not. */
async function verifiedInCache(file: string, expected: string, size: number | undefined): Promise<DownloadedArtifact | undefined> {
  if ((await sizeOf(file)) === undefined) return undefined;
  const hash = (await hashFile(file)).digest("hex");
  const bytes = (await sizeOf(file)) ?? 0;
  if (hash === expected && (size === undefined || bytes === size)) return { file, sha256: hash, bytes };
  await rm(file, { force: true });
  return undefined;
}

/** What an earlier attempt left in `path`, hashed; dropped when it is already longer than the artifact. */
async function openPartial(path: string, size: number | undefined): Promise<PartialFile> {
  let offset = (await sizeOf(path)) ?? 0;
  if (size !== undefined && offset > size) {
    await rm(path, { force: true });
    offset = 0;
  }
  return { path, offset, hash: offset > 0 ? await hashFile(path) : createHash("sha256") };
}

async function startOver(partial: PartialFile): Promise<void> {
  const handle = await open(partial.path, "w");
  await handle.close();
  partial.offset = 0;
  partial.hash = createHash("sha256");
}

// Attempts, each continuing where the last stopped, until the bytes are all there; a final
// answer (a 404, too many bytes) ends them at once.
async function transferAll(t: Transfer): Promise<void> {
  const { url, clock, partial, options } = t;
  const attempts = Math.max(1, options.attempts ?? 5);
  const stallMs = options.stallTimeoutMs ?? 60_000;
  for (let attempt = 1; ; attempt++) {
    const controller = new AbortController();
    let stall: unknown;
    const armStall = () => {
      clock.clearTimeout(stall);
      stall = clock.setTimeout(() => controller.abort(new TransientError(`no data for ${stallMs} ms`)), stallMs);
    };
    try {
      armStall();
      await transferOnce(t, controller.signal, armStall);
      return;
    } catch (e) {
      const cause = controller.signal.aborted ? controller.signal.reason : e;
      if (e instanceof ReleaseError) throw e;
      if (attempt >= attempts) {
        throw new ReleaseError(`download ${url}: ${errorMessage(cause)} (gave up after ${attempts} attempts; ${partial.offset} bytes are kept to resume)`, { cause });
      }
      options.logger.warn(`download of ${url} interrupted at byte ${partial.offset}: ${errorMessage(cause)}; resuming`);
      await sleep(clock, options.retryDelayMs ?? 1000);
    } finally {
      clock.clearTimeout(stall);
    }
  }
}

/** One attempt: the rest of the bytes appended to the partial file. Throws to be resumed. */
async function transferOnce(t: Transfer, signal: AbortSignal, onData: () => void): Promise<void> {
  const { url, partial, options, limit } = t;
  const source = t.scheme === "file" ? await openFile(url, partial.offset) : await openHttp(url, partial.offset, signal);
  if (source === "complete") return;
  if (source === "restart") {
    await startOver(partial);
    throw new TransientError("the server sent a range other than the one asked for");
  }
  if (source.offset !== partial.offset) {
    options.logger.info(`the server of ${url} does not resume downloads; starting over`);
    await startOver(partial);
  }
  const total = source.total ?? options.size;
  if (source.total !== undefined && source.total > limit) {
    (source.body as { destroy?: () => void }).destroy?.();
    throw await tooLarge(t, `the server offers ${source.total} bytes,`);
  }
  const handle = await open(partial.path, "a");
  let over = false;
  try {
    for await (const chunk of source.body) {
      onData();
      if (partial.offset + chunk.byteLength > limit) {
        over = true;
        break;
      }
      await handle.write(chunk);
      partial.hash.update(chunk);
      partial.offset += chunk.byteLength;
      t.progress.update(partial.offset, total);
    }
    await handle.sync();
  } finally {
    await handle.close();
  }
  if (over) throw await tooLarge(t, "the server sent");
}

/** Deletes what came and says how much too much it was. */
async function tooLarge(t: Transfer, bytes: string): Promise<ReleaseError> {
  const { options, limit } = t;
  await rm(t.partial.path, { force: true });
  const expected = options.size !== undefined ? `the ${options.size} bytes expected` : `the ${limit} bytes an artifact of unknown size may have`;
  return new ReleaseError(`download ${t.url}: ${bytes} more than ${expected}; the download was deleted`, {
    kind: options.size !== undefined ? "mismatch" : "failed",
  });
}
