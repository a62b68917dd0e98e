// Whether a module's executable can be started at all, in words a user can act on. A module that
// cannot be started has not started, so it has not crashed either: the supervisor reports it and
// tries again on its own schedule, without touching the crash backoff.
import { constants } from "node:fs";
import { access, stat } from "node:fs/promises";

/** The executable could not be started; the message says why and names the setting. */
export class ModuleSpawnError extends Error {
  override name = "ModuleSpawnError";
}

/** A module written in JavaScript runs on svc-server's own Node.js: no shebang or exec bit needed. */
export const SCRIPT = /\.(mjs|cjs|js)$/;

/**
 * Why `path` cannot be started, or undefined when it looks startable. `setting` names where the
 * path came from: `executable_path`, or a registry package's entrypoint.
 */
export async function executableProblem(path: string, setting: string): Promise<string | undefined> {
  const where = `${setting} ${path}`;
  let stats;
  try {
    stats = await stat(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR") return `${where}: no such file`;
    if (code === "EACCES") return `${where}: cannot be reached: permission denied on a folder on the way`;
    return `${where}: ${(error as Error).message}`;
  }
  if (stats.isDirectory()) return `${where}: is a folder, not a program`;
  if (!stats.isFile()) return `${where}: is not a regular file`;
  if (SCRIPT.test(path)) {
    return (await access(path, constants.R_OK).then(() => true, () => false)) ? undefined : `${where}: cannot be read: permission denied`;
  }
  const runnable = await access(path, constants.X_OK).then(() => true, () => false);
  return runnable ? undefined : `${where}: is not executable: chmod +x it, or write it as a .mjs file`;
}

/** The same, for what the system said when the start itself failed. */
export function spawnProblem(path: string, setting: string, error: NodeJS.ErrnoException): string {
  const where = `${setting} ${path}`;
  if (error.code === "EACCES") return `${where}: is not executable: chmod +x it, or write it as a .mjs file`;
  // The file is there (it was checked), so what is missing is the interpreter its #! line names.
  if (error.code === "ENOENT") return `${where}: cannot be started: the interpreter its #! line names was not found`;
  if (error.code === "ENOEXEC") return `${where}: is not a program this system can run (no #! line, or built for another machine)`;
  return `${where}: cannot be started: ${error.message}`;
}
