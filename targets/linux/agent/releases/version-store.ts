// Installed versions of one product and which of them runs, on disk:
//   /opt/svc/<product>/versions/<version>/   complete versions (unpacked beside, then renamed in)
//   /opt/svc/<product>/current  -> versions/<version>   what runs
//   /opt/svc/<product>/previous -> versions/<version>   what a rollback goes back to
//   /var/lib/svc-agent/versions-<product>.json           bad marks and URL -> version (version-marks.ts)
// Every change is a rename (version-folders.ts), so a process killed at any instant leaves
// `current` pointing at a complete version, never at a half-written one. Changes of the links
// (activate, rollback, cleanup) read them first and then swap: they run one at a time, so two
// activations asked for at once end as if asked one after the other.
import { constants } from "node:fs";
import { access, mkdir, rm } from "node:fs/promises";
import { join } from "node:path";
import { createSerialQueue, parseSemver } from "../../../../core/index.js";
import { createNodeClock } from "../../logging/node-clock.js";
import { EXECUTABLE_NAMES, type AgentPaths, type Product } from "../agent-paths.js";
import { syncDirectory, temporaryPath } from "../../system/atomic-file.js";
import { ReleaseError } from "./release-error.js";
import {
  exists,
  installedVersions,
  linkedVersion,
  moveIn,
  removeLeftovers,
  removeVersion,
  swapLink,
  unpackInto,
  versionDirOf,
  type VersionFolders,
} from "./version-folders.js";
import { createVersionMarks, type VersionMarks } from "./version-marks.js";

export type { BadMark } from "./version-marks.js";

export interface VersionStore extends VersionMarks {
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
  /**
   * Keeps current, previous, `protect` and the newest `keep` good versions besides them; removes the
   * rest (bad versions first of all) and leftovers of interrupted work. Returns what it removed.
   */
  cleanup(keep?: number, protect?: readonly string[]): Promise<string[]>;
}

export interface VersionStoreOptions {
  /** Wall time for bad marks. Default: the Node clock's. */
  now?: () => number;
}

export function createVersionStore(paths: AgentPaths, product: Product, options: VersionStoreOptions = {}): VersionStore {
  const productDir = paths.productDir(product);
  const folders: VersionFolders = {
    productDir,
    versionsDir: join(productDir, "versions"),
    currentLink: paths.currentLink(product),
    previousLink: paths.previousLink(product),
    executableName: EXECUTABLE_NAMES[product],
  };
  const { versionsDir, currentLink, previousLink } = folders;
  const marks = createVersionMarks(join(paths.stateDir, `versions-${product}.json`), options.now ?? createNodeClock().now);
  // Link changes read the links before they swap them.
  const linkChanges = createSerialQueue();

  const checkVersion = (version: string) => {
    // Only semantic versions become folder names: no "/", "..", or spaces can reach the disk.
    if (!parseSemver(version)) throw new ReleaseError(`${product}: ${JSON.stringify(version)} is not a semantic version`);
  };
  const versionDir = (version: string) => versionDirOf(folders, version);

  async function activate(version: string): Promise<void> {
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
  }

  async function rollback(): Promise<string> {
    const left = await linkedVersion(currentLink);
    const back = await linkedVersion(previousLink);
    if (back === undefined) throw new ReleaseError(`${product}: there is no previous version to roll back to`);
    if (!(await exists(paths.executableIn(product, versionDir(back))))) {
      throw new ReleaseError(`${product}: the previous version ${back} is no longer installed`);
    }
    await swapLink(currentLink, back);
    // `previous` must never name the version just left (a second rollback would return to it),
    // yet a next bad version still needs somewhere to go: the newest good version left.
    const bad = await marks.badVersions();
    const fallback = (await installedVersions(folders)).reverse().find((v) => v !== back && v !== left && !bad.has(v));
    if (fallback === undefined) await rm(previousLink, { force: true });
    else await swapLink(previousLink, fallback);
    await syncDirectory(productDir);
    return back;
  }

  async function cleanup(keep: number, protect: readonly string[]): Promise<string[]> {
    const removed = await removeLeftovers(folders);
    const spared = new Set([await linkedVersion(currentLink), await linkedVersion(previousLink), ...protect]);
    const bad = await marks.badVersions();
    let good = 0;
    // Newest first: the newest good versions are kept; bad ones are never worth a place.
    for (const version of (await installedVersions(folders)).reverse()) {
      if (spared.has(version)) continue;
      if (!bad.has(version) && good < keep) {
        good += 1;
        continue;
      }
      await removeVersion(folders, version);
      removed.push(version);
    }
    return removed;
  }

  return {
    ...marks,
    product,
    versionDir,
    async install(version, artifactFile) {
      checkVersion(version);
      await mkdir(versionsDir, { recursive: true });
      if (await exists(versionDir(version))) return versionDir(version);
      const staging = temporaryPath(versionDir(version));
      await unpackInto(folders, staging, artifactFile);
      return moveIn(folders, staging, version);
    },
    async installIdentified(artifactFile, identify) {
      await mkdir(versionsDir, { recursive: true });
      const staging = temporaryPath(join(versionsDir, "unidentified"));
      await unpackInto(folders, staging, artifactFile);
      let version: string;
      try {
        version = await identify(staging);
        checkVersion(version);
      } catch (e) {
        await rm(staging, { recursive: true, force: true });
        throw e;
      }
      return { version, versionDir: await moveIn(folders, staging, version) };
    },
    activate: (version) => linkChanges.run(() => activate(version)),
    current: () => linkedVersion(currentLink),
    previous: () => linkedVersion(previousLink),
    installed: () => installedVersions(folders),
    rollback: () => linkChanges.run(rollback),
    cleanup: (keep = 3, protect = []) => linkChanges.run(() => cleanup(keep, protect)),
  };
}
