// Whether a process's program can be started, in words a user can act on. `name` is found the
// way the system will start it: with a "/" it is a path (a relative one from the process's
// working directory), without one it is looked up in PATH (the entry's own PATH when its `env`
// sets one). A program that cannot be started has not run, so it has not failed either: the
// supervisor says why and tries again on its own schedule.
import { constants } from "node:fs";
import { access, stat } from "node:fs/promises";
import { delimiter, isAbsolute, join, resolve } from "node:path";

/** The program could not be started; the message says why and names it. */
export class ProcessSpawnError extends Error {
  override name = "ProcessSpawnError";
}

/** Why `name` cannot be started from `cwd` with `path` as PATH, or undefined when it looks startable. */
export async function programProblem(name: string, cwd: string, path: string | undefined): Promise<string | undefined> {
  const where = `name ${JSON.stringify(name)}`;
  if (!name.includes("/")) {
    for (const dir of (path ?? "").split(delimiter)) {
      if (dir === "") continue;
      if ((await fileProblem(join(isAbsolute(dir) ? dir : resolve(cwd, dir), name))) === undefined) return undefined;
    }
    return `${where}: no such program in PATH (${path ?? "PATH is not set"})`;
  }
  const problem = await fileProblem(resolve(cwd, name));
  return problem === undefined ? undefined : `${where}: ${problem}`;
}

/** The same, for what the system said when the start itself failed. */
export function spawnProblem(name: string, error: NodeJS.ErrnoException): string {
  const where = `name ${JSON.stringify(name)}`;
  if (error.code === "EACCES") return `${where}: is not executable (chmod +x it)`;
  if (error.code === "ENOENT") return `${where}: cannot be started: the program, its working directory or the interpreter its #! line names was not found`;
  if (error.code === "ENOEXEC") return `${where}: is not a program this system can run (no #! line, or built for another machine)`;
  return `${where}: cannot be started: ${error.message}`;
}

async function fileProblem(file: string): Promise<string | undefined> {
  let stats;
  try {
    stats = await stat(file);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR") return `no such file (${file})`;
    if (code === "EACCES") return `cannot be reached: permission denied on a folder on the way (${file})`;
    return (error as Error).message;
  }
  if (stats.isDirectory()) return `is a folder, not a program (${file})`;
  if (!stats.isFile()) return `is not a regular file (${file})`;
  const runnable = await access(file, constants.X_OK).then(() => true, () => false);
  return runnable ? undefined : `is not executable (${file}): chmod +x it`;
}

/** Why the working directory cannot be used, or undefined. */
export async function workingDirectoryProblem(cwd: string): Promise<string | undefined> {
  const stats = await stat(cwd).catch(() => undefined);
  if (!stats) return `cwd ${JSON.stringify(cwd)}: no such folder`;
  if (!stats.isDirectory()) return `cwd ${JSON.stringify(cwd)}: is not a folder`;
  return undefined;
}
