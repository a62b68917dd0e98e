// Registry modules: `module_id` + `version` resolve, through the module registry, to a package
// for this platform, downloaded into a cache, checked against its sha256, unpacked and run from
// there. A version already in the cache starts without the network. The registry is a tree of
// JSON manifests, `<registry>/<namespace>/<name>/<version>.json` ("latest.json" for the newest):
//   { "version": "1.2.0", "platforms": { "linux/amd64": { "url": "...tar.gz", "sha256": "...",
//     "entrypoint": "bin/module" } } }
// where `url` may be relative to the manifest, and http, https and file URLs all work.
import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import { access, constants, mkdtemp, readFile, rename, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import type { ModuleConfig } from "../../../core/index.js";
import { makeDirectorySync } from "../system/index.js";

const run = promisify(execFile);
const MARKER = ".svc-package.json";

export interface ModulePackageOptions {
  /** Base URL of the module registry; registry modules cannot start without one. */
  registryUrl?: string;
  /** Where packages are unpacked, one folder per module and version. */
  cacheDir: string;
  /** "linux/amd64" or "linux/arm64". */
  platform?: string;
}

export interface ModulePackage {
  version: string;
  executable: string;
  root: string;
}

interface PlatformArtifact {
  url: string;
  sha256: string;
  entrypoint: string;
}

export class ModulePackageError extends Error {
  override name = "ModulePackageError";
}

export function hostPlatform(): string {
  const arch = process.arch === "x64" ? "amd64" : process.arch;
  return `linux/${arch}`;
}

async function readUrl(url: URL): Promise<Buffer> {
  if (url.protocol === "file:") return readFile(fileURLToPath(url));
  if (url.protocol !== "http:" && url.protocol !== "https:") throw new ModulePackageError(`${url.href}: only http, https and file URLs are supported`);
  const response = await fetch(url);
  if (!response.ok) throw new ModulePackageError(`${url.href}: the server answered ${response.status} ${response.statusText}`);
  return Buffer.from(await response.arrayBuffer());
}

function artifactOf(manifest: unknown, platform: string, where: string): { version: string; artifact: PlatformArtifact } {
  const m = manifest as { version?: unknown; platforms?: Record<string, Partial<PlatformArtifact>> };
  if (typeof m?.version !== "string" || m.version === "") throw new ModulePackageError(`${where}: the manifest has no "version"`);
  const a = m.platforms?.[platform];
  if (!a) throw new ModulePackageError(`${where}: version ${m.version} has no package for ${platform}`);
  if (typeof a.url !== "string" || typeof a.entrypoint !== "string" || typeof a.sha256 !== "string" || !/^[0-9a-f]{64}$/.test(a.sha256)) {
    throw new ModulePackageError(`${where}: the ${platform} package needs "url", "entrypoint" and a hex "sha256"`);
  }
  if (a.entrypoint.startsWith("/") || a.entrypoint.split("/").includes("..")) {
    throw new ModulePackageError(`${where}: "entrypoint" must be a path inside the package`);
  }
  return { version: m.version, artifact: a as PlatformArtifact };
}

async function cached(folder: string, entrypoint?: string): Promise<{ sha256: string; entrypoint: string } | undefined> {
  try {
    const marker = JSON.parse(await readFile(join(folder, MARKER), "utf8")) as { sha256: string; entrypoint: string };
    if (entrypoint !== undefined && marker.entrypoint !== entrypoint) return undefined;
    await access(join(folder, marker.entrypoint), constants.X_OK);
    return marker;
  } catch {
    return undefined;
  }
}

/** Finds, downloads when needed, verifies and unpacks the package of a registry module. */
export async function resolveModulePackage(module: ModuleConfig, options: ModulePackageOptions): Promise<ModulePackage> {
  const [namespace, name] = module.module_id.split(":");
  const moduleDir = join(options.cacheDir, `${namespace}_${name}`);
  // A pinned version that is already unpacked needs nothing from the network.
  if (module.version !== "latest") {
    const folder = join(moduleDir, module.version);
    const marker = await cached(folder);
    if (marker) return { version: module.version, executable: join(folder, marker.entrypoint), root: folder };
  }
  if (!options.registryUrl) {
    throw new ModulePackageError(`no module registry is configured (set SVC_MODULE_REGISTRY) to download ${module.module_id} ${module.version}`);
  }
  const base = options.registryUrl.endsWith("/") ? options.registryUrl : `${options.registryUrl}/`;
  const manifestUrl = new URL(`${encodeURIComponent(namespace!)}/${encodeURIComponent(name!)}/${encodeURIComponent(module.version)}.json`, base);
  let manifest: unknown;
  try {
    manifest = JSON.parse((await readUrl(manifestUrl)).toString("utf8"));
  } catch (thrown) {
    throw new ModulePackageError(`cannot read the manifest of ${module.module_id} ${module.version}: ${(thrown as Error).message}`);
  }
  const { version, artifact } = artifactOf(manifest, options.platform ?? hostPlatform(), manifestUrl.href);
  if (!/^[A-Za-z0-9._+-]+$/.test(version)) throw new ModulePackageError(`${manifestUrl.href}: ${JSON.stringify(version)} is not a usable version`);
  const folder = join(moduleDir, version);
  const marker = await cached(folder, artifact.entrypoint);
  if (marker?.sha256 === artifact.sha256) return { version, executable: join(folder, artifact.entrypoint), root: folder };

  const packageUrl = new URL(artifact.url, manifestUrl);
  let bytes: Buffer;
  try {
    bytes = await readUrl(packageUrl);
  } catch (thrown) {
    throw new ModulePackageError(`cannot download ${module.module_id} ${version} from ${packageUrl.href}: ${(thrown as Error).message}`);
  }
  const digest = createHash("sha256").update(bytes).digest("hex");
  if (digest !== artifact.sha256) {
    throw new ModulePackageError(`${packageUrl.href}: sha256 is ${digest}, the manifest says ${artifact.sha256}; not installed`);
  }
  // Unpacked beside its final place and renamed in, so a half-unpacked package is never run.
  makeDirectorySync(moduleDir);
  const staging = await mkdtemp(join(moduleDir, `.${version}-`));
  try {
    const archive = join(staging, ".package.tar.gz");
    await writeFile(archive, bytes);
    await run("tar", ["-xzf", archive, "-C", staging, "--no-same-owner"]);
    await rm(archive);
    await access(join(staging, artifact.entrypoint), constants.X_OK).catch(() => {
      throw new ModulePackageError(`${packageUrl.href}: the package has no executable ${artifact.entrypoint}`);
    });
    await writeFile(join(staging, MARKER), JSON.stringify({ sha256: artifact.sha256, entrypoint: artifact.entrypoint }));
    await rm(folder, { recursive: true, force: true });
    await rename(staging, folder);
  } catch (thrown) {
    await rm(staging, { recursive: true, force: true });
    if (thrown instanceof ModulePackageError) throw thrown;
    throw new ModulePackageError(`cannot unpack ${packageUrl.href}: ${(thrown as Error).message}`);
  }
  return { version, executable: join(folder, artifact.entrypoint), root: folder };
}
