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
import type { Logger } from "../../../../core/index.js";
import { createDownloadProgress, type ProgressMode } from "./download-progress.js";
import { httpGet, type HttpAnswer } from "./http-get.js";
import { ReleaseError, reasonOf } from "./release-error.js";

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
    throw new TransientError(reasonOf(e), { cause: e });
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

export async function downloadArtifact(options: DownloadOptions): Promise<DownloadedArtifact> {
  const { url, cacheDir, logger } = options;
  const expected = options.sha256?.toLowerCase();
  const attempts = Math.max(1, options.attempts ?? 5);
  const stallMs = options.stallTimeoutMs ?? 60_000;
  const scheme = /^([a-z]+):/i.exec(url)?.[1]?.toLowerCase();
  if (scheme !== "http" && scheme !== "https" && scheme !== "file") {
    throw new ReleaseError(`download ${url}: only http, https and file URLs are supported`);
  }
  const limit = options.size ?? options.maxBytes ?? MAX_ARTIFACT_BYTES;
  const tooLarge = async (bytes: string) => {
    await rm(partial, { force: true });
    const expected = options.size !== undefined ? `the ${options.size} bytes expected` : `the ${limit} bytes an artifact of unknown size may have`;
    return new ReleaseError(`download ${url}: ${bytes} more than ${expected}; the download was deleted`, {
      kind: options.size !== undefined ? "mismatch" : "failed",
    });
  };
  const name = safeName(url);
  const finalName = (sha: string) => join(cacheDir, `${sha.slice(0, 16)}-${name}`);
  const partial = join(cacheDir, `${(expected ?? sha256Of(url)).slice(0, 16)}-${name}.partial`);
  await mkdir(cacheDir, { recursive: true });

  // Verified before, and not killed between that and its use: no need to fetch it again.
  if (expected !== undefined && (await sizeOf(finalName(expected))) !== undefined) {
    const file = finalName(expected);
    const hash = (await hashFile(file)).digest("hex");
    const bytes = (await sizeOf(file)) ?? 0;
    if (hash === expected && (options.size === undefined || bytes === options.size)) return { file, sha256: hash, bytes };
    await rm(file, { force: true });
  }

  let offset = (await sizeOf(partial)) ?? 0;
  if (options.size !== undefined && offset > options.size) {
    await rm(partial, { force: true });
    offset = 0;
  }
  let hash = offset > 0 ? await hashFile(partial) : createHash("sha256");
  if (offset > 0) logger.info(`resuming the download of ${url} at byte ${offset}`);
  const progress = createDownloadProgress({ mode: options.progress ?? "auto", logger, label: name, terminal: options.terminal });

  const startOver = async () => {
    const handle = await open(partial, "w");
    await handle.close();
    offset = 0;
    hash = createHash("sha256");
  };

  for (let attempt = 1; ; attempt++) {
    const controller = new AbortController();
    let stall: NodeJS.Timeout | undefined;
    const armStall = () => {
      clearTimeout(stall);
      stall = setTimeout(() => controller.abort(new TransientError(`no data for ${stallMs} ms`)), stallMs);
    };
    let complete = false;
    try {
      armStall();
      const source = scheme === "file" ? await openFile(url, offset) : await openHttp(url, offset, controller.signal);
      if (source === "complete") {
        complete = true;
      } else if (source === "restart") {
        await startOver();
        throw new TransientError("the server sent a range other than the one asked for");
      } else {
        if (source.offset !== offset) {
          logger.info(`the server of ${url} does not resume downloads; starting over`);
          await startOver();
        }
        const total = source.total ?? options.size;
        if (source.total !== undefined && source.total > limit) {
          (source.body as { destroy?: () => void }).destroy?.();
          throw await tooLarge(`the server offers ${source.total} bytes,`);
        }
        const handle = await open(partial, "a");
        let over = false;
        try {
          for await (const chunk of source.body) {
            armStall();
            if (offset + chunk.byteLength > limit) {
              over = true;
              break;
            }
            await handle.write(chunk);
            hash.update(chunk);
            offset += chunk.byteLength;
            progress.update(offset, total);
          }
          await handle.sync();
        } finally {
          await handle.close();
        }
        if (over) throw await tooLarge("the server sent");
        complete = true;
      }
    } catch (e) {
      const cause = controller.signal.aborted ? controller.signal.reason : e;
      if (e instanceof ReleaseError) throw e;
      if (attempt >= attempts) {
        throw new ReleaseError(`download ${url}: ${reasonOf(cause)} (gave up after ${attempts} attempts; ${offset} bytes are kept to resume)`, { cause });
      }
      logger.warn(`download of ${url} interrupted at byte ${offset}: ${reasonOf(cause)}; resuming`);
      await new Promise((r) => setTimeout(r, options.retryDelayMs ?? 1000));
    } finally {
      clearTimeout(stall);
    }
    if (complete) break;
  }

  const bytes = (await sizeOf(partial)) ?? 0;
  progress.finish(bytes);
  const actual = hash.digest("hex");
  if (options.size !== undefined && bytes !== options.size) {
    await rm(partial, { force: true });
    throw new ReleaseError(`download ${url}: got ${bytes} bytes where ${options.size} were expected; the download was deleted`, { kind: "mismatch" });
  }
  if (expected !== undefined && actual !== expected) {
    await rm(partial, { force: true });
    throw new ReleaseError(`download ${url}: its sha256 is ${actual}, expected ${expected}; the download was deleted`, { kind: "mismatch" });
  }
  const file = finalName(actual);
  await rename(partial, file);
  return { file, sha256: actual, bytes };
}
