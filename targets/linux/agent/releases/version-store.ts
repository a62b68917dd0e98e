// Installed versions of one product and which of them runs, on disk:
//   /opt/svc/<product>/versions/<version>/   complete versions (unpacked beside, then renamed in)
//   /opt/svc/<product>/current  -> versions/<version>   what runs
//   /opt/svc/<product>/previous -> versions/<version>   what a rollback goes back to
//   /var/lib/svc-agent/versions-<product>.json           bad marks and URL -> version, written atomically
// Every change is a rename (a folder into versions/, a new symlink over an old one), so a process
// killed at any instant leaves `current` pointing at a complete version, never at a half-written one.
// Changes of the links (activate, rollback, cleanup) read them first and then swap: they run one at
// a time, so two activations asked for at once end as if asked one after the other.
import { execFile } from "node:child_process";
import { constants } from "node:fs";
import { access, copyFile, chmod, lstat, mkdir, open, readFile, readdir, readlink, rename, rm, symlink } from "node:fs/promises";
import { basename, join } from "node:path";
import { promisify } from "node:util";
import { compareVersionTexts, parseSemver } from "../../../../core/index.js";
import { EXECUTABLE_NAMES, type AgentPaths, type Product } from "../agent-paths.js";
import { ReleaseError, reasonOf } from "./release-error.js";
import { TEMPORARY_MARK, syncDirectory, temporaryOwner, temporaryPath, writeFileAtomic } from "../atomic-file.js";
import { createSerialQueue } from "../../system/index.js";

const run = promisify(execFile);

export interface BadMark {
  reason: string;
  /** When it was marked, ISO 8601. */
  at: string;
}

interface StoreState {
  bad: Record<string, BadMark>;
  /** Artifact URL (a URL version spec) -> the version it identified itself as. */
  sources: Record<string, string>;
}

export interface VersionStore {
  readonly product: Product;
  /** versions/<version>, whether installed or not. */
  versionDir(version: string): string;
  /** Unpacks a .tar.gz (or takes a single executable) as `version`; returns its folder. Does not activate. */
  install(version: string, artifactFile: string): Promise<string>;
  /** Like install, for an artifact that names its version itself once unpacked (`identify` reads the unpacked folder). */
  installIdentified(artifactFile: string, identify: (unpacked: string) => Promise<string>): Promise<{ version: string; versionDir: string }>;
  /** Makes `version` current; the version current until now becomes previous. */
  activate(version: string): Promise<void>;
  current(): Promise<string | undefined>;
  previous(): Promise<string | undefined>;
  /** Complete installed versions, oldest first. */
  installed(): Promise<string[]>;
  /** current <- previous; returns the version now current. `previous` moves to the newest good version left (or goes). */
  rollback(): Promise<string>;
  markBad(version: string, reason: string): Promise<void>;
  badVersions(): Promise<ReadonlySet<string>>;
  badMarks(): Promise<Readonly<Record<string, BadMark>>>;
  /** The version an artifact URL was found to be, once installed from it. */
  sourceVersion(url: string): Promise<string | undefined>;
  recordSource(url: string, version: string): Promise<void>;
  /**
   * Keeps current, previous, `protect` and the newest `keep` good versions besides them; removes the
   * rest (bad versions first of all) and leftovers of interrupted work. Returns what it removed.
   */
  cleanup(keep?: number, protect?: readonly string[]): Promise<string[]>;
}

export interface VersionStoreOptions {
  /** Time for bad marks. Default Date.now. */
  now?: () => number;
}

const isTemporary = (name: string) => name.includes(TEMPORARY_MARK);

function alive(pid: number): boolean {
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === "EPERM";
  }
}

async function exists(path: string): Promise<boolean> {
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

export function createVersionStore(paths: AgentPaths, product: Product, options: VersionStoreOptions = {}): VersionStore {
  const now = options.now ?? Date.now;
  const productDir = paths.productDir(product);
  const versionsDir = join(productDir, "versions");
  const currentLink = paths.currentLink(product);
  const previousLink = paths.previousLink(product);
  const stateFile = join(paths.stateDir, `versions-${product}.json`);
  const executableName = EXECUTABLE_NAMES[product];
  // State updates are read-modify-write, and link changes read the links before they swap them.
  const stateChanges = createSerialQueue();
  const linkChanges = createSerialQueue();

  const checkVersion = (version: string) => {
    // Only semantic versions become folder names: no "/", "..", or spaces can reach the disk.
    if (!parseSemver(version)) throw new ReleaseError(`${product}: ${JSON.stringify(version)} is not a semantic version`);
  };
  const versionDir = (version: string) => join(versionsDir, version);

  async function readState(): Promise<StoreState> {
    try {
      const parsed = JSON.parse(await readFile(stateFile, "utf8")) as Partial<StoreState>;
      return { bad: { ...parsed.bad }, sources: { ...parsed.sources } };
    } catch {
      // Missing (nothing marked yet) or unreadable: a bad version may then be tried once more.
      return { bad: {}, sources: {} };
    }
  }

  function updateState(change: (state: StoreState) => void): Promise<void> {
    return stateChanges.run(async () => {
      const state = await readState();
      change(state);
      await writeFileAtomic(stateFile, `${JSON.stringify(state, null, 2)}\n`);
    });
  }

  async function linkedVersion(link: string): Promise<string | undefined> {
    try {
      return basename(await readlink(link));
    } catch {
      return undefined;
    }
  }

  async function swapLink(link: string, version: string): Promise<void> {
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

  async function installedVersions(): Promise<string[]> {
    let names: string[];
    try {
      names = await readdir(versionsDir);
    } catch {
      return [];
    }
    return names.filter((n) => !isTemporary(n) && parseSemver(n) !== undefined).sort(compareVersionTexts);
  }

  async function removeVersion(version: string): Promise<void> {
    // Renamed away first: a removal cut short must not leave a half version that looks complete.
    const doomed = temporaryPath(versionDir(version));
    await rename(versionDir(version), doomed);
    await rm(doomed, { recursive: true, force: true });
  }

  async function removeLeftovers(): Promise<string[]> {
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

  async function unpackInto(staging: string, artifactFile: string): Promise<void> {
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
      const what = (e as NodeJS.ErrnoException).code === "ENOENT" ? `it has no executable ${executableName} at its top` : reasonOf(e);
      throw new ReleaseError(`cannot install ${artifactFile}: ${what}`, { cause: e });
    }
    // Contents on disk before the rename makes them a version, even if the power goes.
    await run("sync", ["-f", staging]).catch(() => undefined);
  }

  async function moveIn(staging: string, version: string): Promise<string> {
    const target = versionDir(version);
    try {
      await rename(staging, target);
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      await rm(staging, { recursive: true, force: true });
      // Already there, and complete since versions only ever arrive by rename: keep it.
      if (code === "ENOTEMPTY" || code === "EEXIST") return target;
      throw e;
    }
    await syncDirectory(versionsDir);
    return target;
  }

  return {
    product,
    versionDir,

    async install(version, artifactFile) {
      checkVersion(version);
      await mkdir(versionsDir, { recursive: true });
      if (await exists(versionDir(version))) return versionDir(version);
      const staging = temporaryPath(versionDir(version));
      await unpackInto(staging, artifactFile);
      return moveIn(staging, version);
    },

    async installIdentified(artifactFile, identify) {
      await mkdir(versionsDir, { recursive: true });
      const staging = temporaryPath(join(versionsDir, "unidentified"));
      await unpackInto(staging, artifactFile);
      let version: string;
      try {
        version = await identify(staging);
        checkVersion(version);
      } catch (e) {
        await rm(staging, { recursive: true, force: true });
        throw e;
      }
      return { version, versionDir: await moveIn(staging, version) };
    },

    activate: (version) =>
      linkChanges.run(async () => {
        checkVersion(version);
        try {
          await access(paths.executableIn(product, versionDir(version)), constants.X_OK);
        } catch {
          throw new ReleaseError(`${product} ${version} is not installed (no executable in ${versionDir(version)})`);
        }
        const old = await linkedVersion(currentLink);
        if (old === version) return;
        if (old !== undefined && (await exists(versionDir(old)))) await swapLink(previousLink, old);
        await swapLink(currentLink, version);
        await syncDirectory(productDir);
      }),

    current: () => linkedVersion(currentLink),
    previous: () => linkedVersion(previousLink),

    installed: installedVersions,

    rollback: () =>
      linkChanges.run(async () => {
        const left = await linkedVersion(currentLink);
        const back = await linkedVersion(previousLink);
        if (back === undefined) throw new ReleaseError(`${product}: there is no previous version to roll back to`);
        if (!(await exists(paths.executableIn(product, versionDir(back))))) {
          throw new ReleaseError(`${product}: the previous version ${back} is no longer installed`);
        }
        await swapLink(currentLink, back);
        // `previous` must never name the version just left (a second rollback would return to it),
        // yet a next bad version still needs somewhere to go: the newest good version left.
        const bad = new Set(Object.keys((await readState()).bad));
        const fallback = (await installedVersions()).reverse().find((v) => v !== back && v !== left && !bad.has(v));
        if (fallback === undefined) await rm(previousLink, { force: true });
        else await swapLink(previousLink, fallback);
        await syncDirectory(productDir);
        return back;
      }),

    markBad: (version, reason) =>
      updateState((state) => {
        state.bad[version] = { reason, at: new Date(now()).toISOString() };
      }),
    async badVersions() {
      return new Set(Object.keys((await readState()).bad));
    },
    async badMarks() {
      return (await readState()).bad;
    },
    async sourceVersion(url) {
      const version = (await readState()).sources[url];
      return typeof version === "string" ? version : undefined;
    },
    recordSource: (url, version) =>
      updateState((state) => {
        state.sources[url] = version;
      }),

    cleanup: (keep = 3, protect = []) =>
      linkChanges.run(async () => {
        const removed = await removeLeftovers();
        const current = await linkedVersion(currentLink);
        const previous = await linkedVersion(previousLink);
        const spared = new Set([current, previous, ...protect]);
        const bad = new Set(Object.keys((await readState()).bad));
        let good = 0;
        // Newest first: the newest good versions are kept; bad ones are never worth a place.
        for (const version of (await installedVersions()).reverse()) {
          if (spared.has(version)) continue;
          if (!bad.has(version) && good < keep) {
            good += 1;
            continue;
          }
          await removeVersion(version);
          removed.push(version);
        }
        return removed;
      }),
  };
}
