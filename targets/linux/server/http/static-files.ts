// `-shareddir DIR`: the files of a folder served on the API port (GET and HEAD), index.html for
// a folder, 404 for anything else. Paths are decoded, normalised and resolved, symbolic links
// included, and must stay inside the folder: "..", encoded slashes and links pointing out are
// all refused the same way, as not found.
import { createReadStream, realpathSync, statSync } from "node:fs";
import { realpath, stat } from "node:fs/promises";
import { join, posix, sep } from "node:path";
import type { HttpRequest, HttpResponse, HttpRoute } from "../transport/index.js";
import { contentTypeOf } from "./content-types.js";

export interface StaticFilesOptions {
  /** The folder to serve. */
  dir: string;
  /** Where on the port it appears; ends with "/". Default "/". */
  mountPath?: string;
}

/** The folder cannot be served (it does not exist or is not a folder). */
export class StaticFilesError extends Error {
  override name = "StaticFilesError";
}

/** The route serving `dir`; throws StaticFilesError at once when the folder is unusable. */
export function staticFilesRoute(options: StaticFilesOptions): HttpRoute {
  const mountPath = options.mountPath ?? "/";
  if (!mountPath.startsWith("/") || !mountPath.endsWith("/")) {
    throw new StaticFilesError(`static files: the mount path must start and end with "/" (found ${JSON.stringify(mountPath)})`);
  }
  const root = folder(options.dir);
  const inside = root.endsWith(sep) ? root : root + sep;
  return {
    method: "GET",
    path: mountPath,
    prefix: true,
    handler: (req, res) => serve(root, inside, mountPath, req, res),
  };
}

function folder(dir: string): string {
  let real: string;
  try {
    real = realpathSync(dir);
  } catch (cause) {
    const code = (cause as NodeJS.ErrnoException).code;
    const why = code === "ENOENT" ? "no such directory" : (cause as Error).message;
    throw new StaticFilesError(`-shareddir ${JSON.stringify(dir)}: ${why}`, { cause });
  }
  if (!statSync(real).isDirectory()) throw new StaticFilesError(`-shareddir ${JSON.stringify(dir)}: not a directory`);
  return real;
}

async function serve(root: string, inside: string, mountPath: string, req: HttpRequest, res: HttpResponse): Promise<void> {
  const file = await resolveFile(root, inside, mountPath, req.url ?? "/");
  if (!file) {
    res.writeHead(404, { "content-type": "text/plain; charset=utf-8" });
    if (req.method === "HEAD") res.end();
    else res.end("not found\n");
    return;
  }
  res.writeHead(200, {
    "content-type": contentTypeOf(file.path),
    "content-length": file.size,
    "last-modified": file.modified.toUTCString(),
    "cache-control": "no-cache",
    "x-content-type-options": "nosniff",
  });
  if (req.method === "HEAD") {
    res.end();
    return;
  }
  await new Promise<void>((resolve, reject) => {
    const stream = createReadStream(file.path);
    stream.on("error", reject);
    stream.on("end", resolve);
    res.on("close", () => {
      stream.destroy();
      resolve();
    });
    stream.pipe(res as NodeJS.WritableStream);
  });
}

interface FoundFile {
  path: string;
  size: number;
  modified: Date;
}

async function resolveFile(root: string, inside: string, mountPath: string, url: string): Promise<FoundFile | undefined> {
  const query = url.search(/[?#]/);
  let path: string;
  try {
    path = decodeURIComponent(query < 0 ? url : url.slice(0, query));
  } catch {
    return undefined;
  }
  if (!path.startsWith(mountPath) || path.includes("\0") || path.includes("\\")) return undefined;
  const relative = posix.normalize(`/${path.slice(mountPath.length)}`);
  if (relative.split("/").includes("..")) return undefined;
  let candidate = join(root, relative);
  try {
    let info = await stat(candidate);
    if (info.isDirectory()) {
      candidate = join(candidate, "index.html");
      info = await stat(candidate);
    }
    if (!info.isFile()) return undefined;
    const real = await realpath(candidate);
    if (!real.startsWith(inside)) return undefined;
    return { path: real, size: info.size, modified: info.mtime };
  } catch {
    return undefined;
  }
}
