// The folders svc-server keeps its module sockets in, `$TMPDIR/svc-m-<id>` (see owned-folder.ts),
// and clearing up after servers that died: svc-server does it when it starts, and svc-agent before
// it starts one, the same way.
import { tmpdir } from "node:os";
import { describeSweep, sweepOwnedFolders, type SweptFolder } from "./sweep-owned-folders.js";

export const MODULE_FOLDER_PREFIX = "svc-m-";

export interface ModuleFolderSweepOptions {
  /** Where the folders are: the servers' $TMPDIR. Default: this process's temporary folder. */
  base?: string;
  /** Told, in one line, what was swept (nothing is said when nothing was). */
  logger?: { warn(message: string, fields?: Record<string, unknown>): void };
  /** SIGTERM to SIGKILL. Default 5 s. */
  graceMs?: number;
}

/** Stops the modules of svc-server processes that are gone and removes their folders. */
export async function sweepModuleFolders(options: ModuleFolderSweepOptions = {}): Promise<SweptFolder[]> {
  const swept = await sweepOwnedFolders(options.base ?? tmpdir(), MODULE_FOLDER_PREFIX, { graceMs: options.graceMs });
  if (swept.length > 0) {
    options.logger?.warn(describeSweep(swept, "svc-server"), {
      folders: swept.map((s) => s.dir),
      process_groups: swept.flatMap((s) => s.groups.map((g) => g.pgid)),
    });
  }
  return swept;
}

/** The temporary folder a process started with `env` uses (as Node's os.tmpdir() reads it). */
export function temporaryFolderOf(env: Record<string, string | undefined>): string {
  const dir = env.TMPDIR || env.TMP || env.TEMP || "/tmp";
  return dir.length > 1 && dir.endsWith("/") ? dir.slice(0, -1) : dir;
}
