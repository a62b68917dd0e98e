// Registry modules: `module_id` + `version` resolve, through the module registry, to a package
// for this platform, downloaded into a cache, checked against its sha256, unpacked and run from
// there. A version already in the cache starts without the network. The registry is a tree of
// JSON manifests, `<registry>/<namespace>/<name>/<version>.json` ("latest.json" for the newest):
//   { "version": "1.2.0", "platforms": { "linux/amd64": { "url": "...tar.gz", "sha256": "...",
//     "entrypoint": "bin/module", "first_run": "setup.sh" } } }
// where `url` may be relative to the manifest, and http, https and file URLs all work. A package
// with a `first_run` script (Viam's meta.json field) has it run once, in the package's folder,
// before the module first starts, within the module's `first_run_timeout`; until it succeeds the
// module does not start, and the next start tries it again.
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
const FIRST_RUN_DONE = ".svc-first-run-succeeded";
// What is kept of a failing first-run script's output for its error.
const firstRunOutputChars = 2000;

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
  first_run?: string;
}

type Marker = Pick<PlatformArtifact, "sha256" | "entrypoint" | "first_run">;

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
  for (const key of ["entrypoint", "first_run"] as const) {
    const path = a[key];
    if (key === "first_run" && path === undefined) continue;
    if (typeof path !== "string" || path === "" || path.startsWith("/") || path.split("/").includes("..")) {
      throw new ModulePackageError(`${where}: "${key}" must be a path inside the package`);
    }
  }
  return { version: m.version, artifact: a as PlatformArtifact };
}

async function cached(folder: string, entrypoint?: string): Promise<Marker | undefined> {
  try {
    const marker = JSON.parse(await readFile(join(folder, MARKER), "utf8")) as Marker;
    if (entrypoint !== undefined && marker.entrypoint !== entrypoint) return undefined;
    await access(join(folder, marker.entrypoint), constants.X_OK);
    return marker;
  } catch {
    return undefined;
  }
}

/** Finds, downloads when needed, verifies and unpacks the package of a registry module, and runs its first-run script once. */
export async function resolveModulePackage(module: ModuleConfig, options: ModulePackageOptions): Promise<ModulePackage> {
  const found = await unpackedPackage(module, options);
  if (found.firstRun !== undefined) await firstRunOnce(module, found.root, found.firstRun);
  return { version: found.version, executable: found.executable, root: found.root };
}

async function unpackedPackage(module: ModuleConfig, options: ModulePackageOptions): Promise<ModulePackage & { firstRun?: string }> {
  const [namespace, name] = module.module_id.split(":");
  const moduleDir = join(options.cacheDir, `${namespace}_${name}`);
  // A pinned version that is already unpacked needs nothing from the network.
  if (module.version !== "latest") {
    const folder = join(moduleDir, module.version);
    const marker = await cached(folder);
    if (marker) return { version: module.version, executable: join(folder, marker.entrypoint), root: folder, firstRun: marker.first_run };
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
  if (marker?.sha256 === artifact.sha256) return { version, executable: join(folder, artifact.entrypoint), root: folder, firstRun: marker.first_run };

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
    const marker: Marker = { sha256: artifact.sha256, entrypoint: artifact.entrypoint, first_run: artifact.first_run };
    await writeFile(join(staging, MARKER), JSON.stringify(marker));
    await rm(folder, { recursive: true, force: true });
    await rename(staging, folder);
  } catch (thrown) {
    await rm(staging, { recursive: true, force: true });
    if (thrown instanceof ModulePackageError) throw thrown;
    throw new ModulePackageError(`cannot unpack ${packageUrl.href}: ${(thrown as Error).message}`);
  }
  return { version, executable: join(folder, artifact.entrypoint), root: folder, firstRun: artifact.first_run };
}

// The first-run script, unless it has already succeeded for this unpacked package.
async function firstRunOnce(module: ModuleConfig, root: string, script: string): Promise<void> {
  const done = join(root, FIRST_RUN_DONE);
  if (await access(done).then(() => true, () => false)) return;
  try {
    await run(join(root, script), [], {
      cwd: root,
      env: { ...process.env, ...module.env },
      timeout: module.first_run_timeout_ms,
      killSignal: "SIGKILL",
      maxBuffer: 1024 * 1024,
    });
  } catch (thrown) {
    const failure = thrown as { killed?: boolean; code?: unknown; stdout?: string; stderr?: string; message: string };
    const why = failure.killed ? `did not finish within first_run_timeout ${module.first_run_timeout}` : typeof failure.code === "number" ? `exited with status ${failure.code}` : failure.message;
    const output = `${failure.stdout ?? ""}${failure.stderr ?? ""}`.trim().slice(-firstRunOutputChars);
    throw new ModulePackageError(`the first-run script ${script} of ${module.module_id} ${why}${output ? `: ${output}` : ""}; the module starts once it succeeds`);
  }
  await writeFile(done, "");
}
