// What an artifact given by URL is, read from the version manifest `npm run package` puts at the
// top of every artifact: `svc-release.json`, `{"product": "svc-server", "version": "1.2.3",
// "platform": "linux/amd64"}`. It is read as a file; nothing the artifact holds is run to find
// out what it is (it would run as root, before anything vouched for it).
import { lstat, readFile } from "node:fs/promises";
import { join } from "node:path";
import { parseSemver } from "../../../../core/index.js";
import { EXECUTABLE_NAMES, type Product } from "../agent-paths.js";
import { ReleaseError } from "./release-error.js";

export const RELEASE_MANIFEST = "svc-release.json";
/** A manifest is a few dozen bytes; anything much larger is not one. */
const MAX_MANIFEST_BYTES = 64 * 1024;

export interface ReleaseManifest {
  /** The program: "svc-server" or "svc-agent". */
  product: string;
  version: string;
  /** "linux/amd64" or "linux/arm64". */
  platform: string;
}

/**
 * The version of the unpacked artifact in `dir`, from its manifest; a ReleaseError (naming `source`)
 * unless the manifest says it is `product` for `platform`.
 */
export async function readReleaseManifest(dir: string, product: Product, platform: string, source: string): Promise<string> {
  const file = join(dir, RELEASE_MANIFEST);
  const fail = (why: string) => new ReleaseError(`${source}: ${why}; nothing was installed`);
  const stats = await lstat(file).catch(() => undefined);
  if (!stats) throw fail(`it has no ${RELEASE_MANIFEST} at its top (only a package made by \`npm run package\` can be installed from a URL)`);
  if (!stats.isFile() || stats.size > MAX_MANIFEST_BYTES) throw fail(`its ${RELEASE_MANIFEST} is not a small regular file`);
  let manifest: Partial<Record<keyof ReleaseManifest, unknown>>;
  try {
    const parsed: unknown = JSON.parse(await readFile(file, "utf8"));
    if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) throw new Error("not an object");
    manifest = parsed as typeof manifest;
  } catch {
    throw fail(`its ${RELEASE_MANIFEST} is not a JSON object`);
  }
  const name = EXECUTABLE_NAMES[product];
  if (manifest.product !== name) throw fail(`it is not ${name}: its ${RELEASE_MANIFEST} says product ${JSON.stringify(manifest.product)}`);
  if (typeof manifest.version !== "string" || !parseSemver(manifest.version)) {
    throw fail(`its ${RELEASE_MANIFEST} has no semantic version (version ${JSON.stringify(manifest.version)})`);
  }
  if (manifest.platform !== platform) {
    throw fail(`it is built for ${JSON.stringify(manifest.platform)}, not for this machine (${platform})`);
  }
  return manifest.version;
}
