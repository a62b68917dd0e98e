// `svc-cloud release add DIR [--channel stable|dev]`: imports what `npm run package` wrote in DIR
// (index.json and the artifacts it lists) into svc-cloud's release index. Every artifact is checked
// against the sha256 and size index.json gives before anything is kept, so a folder with a missing
// or altered file imports nothing. The files are copied into the data folder's `releases/`; the
// channel (stable unless --channel dev) of each product then points at the version index.json's
// own channel of that name names, or else the newest version imported.
import { createHash } from "node:crypto";
import { copyFileSync, existsSync, mkdirSync, readFileSync, renameSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { Code, SvcError } from "../../../core/index.js";
import { compareVersionTexts, parseReleaseIndex, RELEASE_PRODUCTS, type Channel } from "../../../core/agent/index.js";
import type { Store } from "../storage/open-store.js";
import { addRelease, isImported, setChannel } from "../storage/releases-store.js";
import type { ReleasesTable } from "../storage/tables.js";
import { lockNamed } from "../storage/write-locks.js";

export interface ReleaseAddOptions {
  dir: string | undefined;
  channel?: string;
  dataDir: string;
  now: number;
}

export interface ReleaseAddResult {
  imported: { product: string; version: string; platform: string; sha256: string; new: boolean }[];
  channels: { product: string; channel: string; version: string }[];
}

/** Where the artifacts svc-cloud serves are kept, in the data folder. */
export function releasesDir(dataDir: string): string {
  return join(dataDir, "releases");
}

/** A file name svc-cloud serves: no path, nothing a shell or URL would read twice. */
export const RELEASE_FILE = /^[A-Za-z0-9][A-Za-z0-9._+-]{0,200}$/;

/** An artifact as the release folder's index names it: a release row before it is imported. */
type Artifact = Omit<ReleasesTable, "added_at">;

export async function releaseAdd(store: Store, options: ReleaseAddOptions): Promise<ReleaseAddResult> {
  if (options.dir === undefined) throw new SvcError(Code.InvalidArgument, "release add: name the folder `npm run package` wrote (svc-cloud release add DIR)");
  const channel = (options.channel ?? "stable") as Channel;
  if (channel !== "stable" && channel !== "dev") throw new SvcError(Code.InvalidArgument, `--channel ${JSON.stringify(options.channel)}: must be stable or dev`);
  const dir = resolve(options.dir);
  const artifacts = checkedArtifacts(dir);
  const index = readIndex(dir).index;

  // A version already imported with another artifact is refused before any file is touched.
  for (const artifact of artifacts) await isImported(store.db, artifact);
  const target = releasesDir(options.dataDir);
  mkdirSync(target, { recursive: true, mode: 0o755 });
  for (const artifact of artifacts) copyInto(join(dir, artifact.file), target, artifact);

  return store.db.transaction().execute(async (tx) => {
    await lockNamed(tx, "releases");
    const imported: ReleaseAddResult["imported"] = [];
    for (const a of artifacts) {
      const fresh = await addRelease(tx, { product: a.product, version: a.version, platform: a.platform, file: a.file, sha256: a.sha256, size: a.size, added_at: options.now });
      imported.push({ product: a.product, version: a.version, platform: a.platform, sha256: a.sha256, new: fresh });
    }
    const channels: ReleaseAddResult["channels"] = [];
    for (const product of RELEASE_PRODUCTS) {
      const releases = index[product];
      if (releases === undefined) continue;
      const versions = Object.keys(releases.versions).filter((v) => Object.keys(releases.versions[v]!).length > 0);
      const version = releases.channels[channel] ?? versions.sort(compareVersionTexts).at(-1);
      if (version === undefined) continue;
      await setChannel(tx, { product, channel, version, now: options.now });
      channels.push({ product, channel, version });
    }
    return { imported, channels };
  });
}

function readIndex(dir: string) {
  const file = join(dir, "index.json");
  if (!existsSync(file)) throw new SvcError(Code.NotFound, `${file}: not found (release add takes the folder \`npm run package\` wrote)`);
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(file, "utf8"));
  } catch (thrown) {
    throw new SvcError(Code.InvalidArgument, `${file}: not valid JSON (${(thrown as Error).message})`);
  }
  const parsed = parseReleaseIndex(json, pathToFileURL(file).href);
  if (parsed.problems.length > 0) throw new SvcError(Code.InvalidArgument, `${file}: ${parsed.problems.join("; ")}`);
  return parsed;
}

/** Every artifact index.json lists, each present in `dir` with the sha256 and size it says. */
function checkedArtifacts(dir: string): Artifact[] {
  const { index } = readIndex(dir);
  const artifacts: Artifact[] = [];
  for (const product of RELEASE_PRODUCTS) {
    for (const [version, platforms] of Object.entries(index[product]?.versions ?? {})) {
      for (const [platform, artifact] of Object.entries(platforms)) {
        const where = `index.json ${product}.versions["${version}"]["${platform}"]`;
        const file = decodeURIComponent(new URL(artifact.url).pathname.split("/").at(-1) ?? "");
        if (!RELEASE_FILE.test(file)) throw new SvcError(Code.InvalidArgument, `${where}.url: ${JSON.stringify(file)} is not a release file name`);
        const path = join(dir, file);
        if (!existsSync(path)) throw new SvcError(Code.NotFound, `${where}: ${path} is missing`);
        const sha256 = sha256Of(path);
        if (sha256 !== artifact.sha256) throw new SvcError(Code.DataLoss, `${where}: ${path} has sha256 ${sha256}, index.json says ${artifact.sha256}`);
        const size = statSync(path).size;
        if (artifact.size !== undefined && size !== artifact.size) throw new SvcError(Code.DataLoss, `${where}: ${path} is ${size} bytes, index.json says ${artifact.size}`);
        artifacts.push({ product, version, platform, file, sha256, size });
      }
    }
  }
  if (artifacts.length === 0) throw new SvcError(Code.InvalidArgument, `${join(dir, "index.json")}: lists no artifacts`);
  return artifacts;
}

function sha256Of(path: string): string {
  return createHash("sha256").update(readFileSync(path)).digest("hex");
}

/** Copies an artifact into `target` under its name, whole or not at all (a temporary name, then a rename). */
function copyInto(source: string, target: string, artifact: Artifact): void {
  const destination = join(target, artifact.file);
  if (existsSync(destination) && sha256Of(destination) === artifact.sha256) return;
  const partial = `${destination}.partial`;
  copyFileSync(source, partial);
  if (sha256Of(partial) !== artifact.sha256) throw new SvcError(Code.DataLoss, `${source} changed while it was copied; run release add again`);
  renameSync(partial, destination);
}
