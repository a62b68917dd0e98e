// `svc-cloud release add DIR [--channel stable|dev]`: imports what `npm run package` wrote in DIR
// (index.json and the artifacts it lists) into svc-cloud's release index. Every artifact is checked
// against the sha256 and size index.json gives before anything is kept, so a folder with a missing
// or altered file imports nothing. The artifacts go to the file store (storage/file-store.ts): the
// data folder's `releases/`, or with PostgreSQL the database, so that every replica serves them and
// `backup` carries them. Their bytes and the index's rows are kept in one transaction. An artifact
// already imported whose bytes are missing is kept again. The channel (stable unless --channel dev)
// of each product then points at the version index.json's own channel of that name names, or else
// the newest version imported.
import { createHash } from "node:crypto";
import { createReadStream, existsSync, readFileSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import type { Kysely } from "kysely";
import { Code, SvcError } from "../../../core/index.js";
import { compareVersionTexts, parseReleaseIndex, RELEASE_PRODUCTS, type Channel, type ReleaseIndex } from "../../../core/agent/index.js";
import type { FileStore, StagedFile } from "../storage/file-store.js";
import { fileStoreOf } from "../storage/file-store-of.js";
import type { Store } from "../storage/open-store.js";
import { addRelease, isImported, setChannel } from "../storage/releases-store.js";
import type { ReleasesTable, Tables } from "../storage/tables.js";
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

/** The file store's key of an artifact svc-cloud serves. */
export function releaseFileKey(file: string): string {
  return `releases/${file}`;
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
  const { index } = readIndex(dir);
  const artifacts = await checkedArtifacts(dir, index);
  const files = fileStoreOf(store, options.dataDir);

  // A version already imported with another artifact is refused before anything is staged.
  const wanted: Artifact[] = [];
  for (const artifact of artifacts) if (await needsBytes(store.db, files, artifact)) wanted.push(artifact);
  const staged = await stageArtifacts(files, dir, wanted);
  const kept = new Set<StagedFile>();
  let result: ReleaseAddResult;
  try {
    result = await store.db.transaction().execute(async (tx) => {
      await lockNamed(tx, "releases");
      const imported: ReleaseAddResult["imported"] = [];
      for (const a of artifacts) {
        const file = staged.get(a.file);
        // Another import may have kept it since it was staged.
        if (file !== undefined && (await needsBytes(tx, files, a))) {
          await file.keep(tx);
          kept.add(file);
        }
        const fresh = await addRelease(tx, { product: a.product, version: a.version, platform: a.platform, file: a.file, sha256: a.sha256, size: a.size, added_at: options.now });
        imported.push({ product: a.product, version: a.version, platform: a.platform, sha256: a.sha256, new: fresh });
      }
      return { imported, channels: await pointChannels(tx, index, channel, options.now) };
    });
  } catch (thrown) {
    for (const file of staged.values()) await file.abandon();
    throw thrown;
  }
  for (const file of staged.values()) if (!kept.has(file)) await file.abandon();
  return result;
}

/** Whether the artifact's bytes are to be kept: it is new, or its file is missing or not its size. AlreadyExists for another artifact under its version. */
async function needsBytes(db: Kysely<Tables>, files: FileStore, artifact: Artifact): Promise<boolean> {
  if (!(await isImported(db, artifact))) return true;
  return (await files.size(releaseFileKey(artifact.file))) !== artifact.size;
}

/** Stages each artifact from `dir`, checked again against its sha256 as it is read; all of them, or none. */
async function stageArtifacts(files: FileStore, dir: string, artifacts: Artifact[]): Promise<Map<string, StagedFile>> {
  const staged = new Map<string, StagedFile>();
  try {
    for (const artifact of artifacts) {
      if (staged.has(artifact.file)) continue;
      const source = join(dir, artifact.file);
      const file = await files.stage(releaseFileKey(artifact.file), createReadStream(source));
      staged.set(artifact.file, file);
      if (file.sha256 !== artifact.sha256) throw new SvcError(Code.DataLoss, `${source} changed while it was copied; run release add again`);
    }
  } catch (thrown) {
    for (const file of staged.values()) await file.abandon();
    throw thrown;
  }
  return staged;
}

/** Points `channel` of each product index.json lists at its version of that channel, or else its newest. */
async function pointChannels(tx: Kysely<Tables>, index: ReleaseIndex, channel: Channel, now: number): Promise<ReleaseAddResult["channels"]> {
  const channels: ReleaseAddResult["channels"] = [];
  for (const product of RELEASE_PRODUCTS) {
    const releases = index[product];
    if (releases === undefined) continue;
    const versions = Object.keys(releases.versions).filter((v) => Object.keys(releases.versions[v]!).length > 0);
    const version = releases.channels[channel] ?? versions.sort(compareVersionTexts).at(-1);
    if (version === undefined) continue;
    await setChannel(tx, { product, channel, version, now });
    channels.push({ product, channel, version });
  }
  return channels;
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
async function checkedArtifacts(dir: string, index: ReleaseIndex): Promise<Artifact[]> {
  const artifacts: Artifact[] = [];
  for (const product of RELEASE_PRODUCTS) {
    for (const [version, platforms] of Object.entries(index[product]?.versions ?? {})) {
      for (const [platform, artifact] of Object.entries(platforms)) {
        const where = `index.json ${product}.versions["${version}"]["${platform}"]`;
        const file = decodeURIComponent(new URL(artifact.url).pathname.split("/").at(-1) ?? "");
        if (!RELEASE_FILE.test(file)) throw new SvcError(Code.InvalidArgument, `${where}.url: ${JSON.stringify(file)} is not a release file name`);
        const path = join(dir, file);
        if (!existsSync(path)) throw new SvcError(Code.NotFound, `${where}: ${path} is missing`);
        const sha256 = await sha256Of(path);
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

/** The file's hex SHA-256, read a piece at a time. */
async function sha256Of(path: string): Promise<string> {
  const hash = createHash("sha256");
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  return hash.digest("hex");
}
