// The files of one product's installed versions, and the moves that change them: every change is
// a rename (a folder into versions/, a new symlink over an old one), so a process killed at any
// instant leaves `current` pointing at a complete version, never at a half-written one. These are
// the store's steps; version-store.ts decides when they run.
import { execFile } from "node:child_process";
import { constants } from "node:fs";
import { access, copyFile, chmod, lstat, mkdir, open, readdir, readlink, rename, rm, symlink } from "node:fs/promises";
import { basename, join } from "node:path";
import { promisify } from "node:util";
import { compareVersionTexts, errorMessage, parseSemver } from "../../../../core/index.js";
import { ReleaseError } from "./release-error.js";
import { TEMPORARY_MARK, syncDirectory, temporaryOwner, temporaryPath } from "../../system/atomic-file.js";

const run = promisify(execFile);

/** Where one product's versions live. */
export interface VersionFolders {
  productDir: string;
  versionsDir: string;
  currentLink: string;
  previousLink: string;
  /** The executable at the top of every version. */
  executableName: string;
}

const isTemporary = (name: string) => name.includes(TEMPORARY_MARK);

export const versionDirOf = (folders: VersionFolders, version: string) => join(folders.versionsDir, version);

function alive(pid: number): boolean {
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === "EPERM";
  }
}

export async function exists(path: string): Promise<boolean> {
  try {
    await lstat(path);
    return true;
  } catch {
    return false;
  }
}

async function isGzip(file: string): Promise<boolean> {
  const handle = await open(file, "r");
  try {
    const { buffer, bytesRead } = await handle.read(Buffer.alloc(2), 0, 2, 0);
    return bytesRead === 2 && buffer[0] === 0x1f && buffer[1] === 0x8b;
  } finally {
    await handle.close();
  }
}

/** The version a link points at, or undefined when there is no link. */
export async function linkedVersion(link: string): Promise<string | undefined> {
  try {
    return basename(await readlink(link));
  } catch {
    return undefined;
  }
}

export async function swapLink(link: string, version: string): Promise<void> {
  const temp = temporaryPath(link);
  // A name left by an agent of an earlier boot that had our PID.
  await rm(temp, { force: true });
  await symlink(join("versions", version), temp);
  try {
    await rename(temp, link);
  } catch (e) {
    await rm(temp, { force: true });
    throw e;
  }
}

/** Complete installed versions, oldest first. */
export async function installedVersions(folders: VersionFolders): Promise<string[]> {
  let names: string[];
  try {
    names = await readdir(folders.versionsDir);
  } catch {
    return [];
  }
  return names.filter((n) => !isTemporary(n) && parseSemver(n) !== undefined).sort(compareVersionTexts);
}

export async function removeVersion(folders: VersionFolders, version: string): Promise<void> {
  // Renamed away first: a removal cut short must not leave a half version that looks complete.
  const doomed = temporaryPath(versionDirOf(folders, version));
  await rename(versionDirOf(folders, version), doomed);
  await rm(doomed, { recursive: true, force: true });
}

/** Removes what interrupted work of a process no longer alive left behind; returns the folders removed. */
export async function removeLeftovers(folders: VersionFolders): Promise<string[]> {
  const { versionsDir, productDir } = folders;
  const leftover = (name: string) => {
    const owner = temporaryOwner(name);
    return owner !== undefined && !alive(owner);
  };
  const removed: string[] = [];
  for (const name of (await readdir(versionsDir).catch(() => [] as string[])).filter(leftover)) {
    // The tar of a killed agent may still be writing into it for a moment: retry.
    await rm(join(versionsDir, name), { recursive: true, force: true, maxRetries: 10, retryDelay: 100 });
    removed.push(name);
  }
  for (const name of await readdir(productDir).catch(() => [] as string[])) {
    if ((name.startsWith(`current${TEMPORARY_MARK}`) || name.startsWith(`previous${TEMPORARY_MARK}`)) && leftover(name)) await rm(join(productDir, name), { force: true });
  }
  return removed;
}

/** Unpacks a .tar.gz (or takes a single executable) into `staging`, which must end up holding the executable. */
export async function unpackInto(folders: VersionFolders, staging: string, artifactFile: string): Promise<void> {
  const { executableName } = folders;
  await rm(staging, { recursive: true, force: true });
  await mkdir(staging, { recursive: true });
  const executable = join(staging, executableName);
  try {
    if (await isGzip(artifactFile)) {
      await run("tar", ["-xzf", artifactFile, "-C", staging, "--no-same-owner"]);
    } else {
      await copyFile(artifactFile, executable);
      await chmod(executable, 0o755);
    }
    await access(executable, constants.X_OK);
  } catch (e) {
    await rm(staging, { recursive: true, force: true });
    const what = (e as NodeJS.ErrnoException).code === "ENOENT" ? `it has no executable ${executableName} at its top` : errorMessage(e);
    throw new ReleaseError(`cannot install ${artifactFile}: ${what}`, { cause: e });
  }
  // Contents on disk before the rename makes them a version, even if the power goes.
  await run("sync", ["-f", staging]).catch(() => undefined);
}

/** Renames an unpacked folder in as `version`; one already there is complete and stays. */
export async function moveIn(folders: VersionFolders, staging: string, version: string): Promise<string> {
  const target = versionDirOf(folders, version);
  try {
    await rename(staging, target);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    await rm(staging, { recursive: true, force: true });
    // Already there, and complete since versions only ever arrive by rename: keep it.
    if (code === "ENOTEMPTY" || code === "EEXIST") return target;
    throw e;
  }
  await syncDirectory(folders.versionsDir);
  return target;
}
