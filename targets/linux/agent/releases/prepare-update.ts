// One update step, everything but the switch: resolve what the version spec asks for, and unless
// that is already what runs or already installed, download it, verify it (and for a URL artifact
// read what it is from its svc-release.json) and install it beside the current version.
// Activation, and when it may happen, are the caller's decision. An index entry whose artifact
// did not match it is not downloaded again until its backoff has passed (see download-failures.ts).
import { rm } from "node:fs/promises";
import { errorMessage, resolveRelease, type Logger, type ReleaseIndex } from "../../../../core/index.js";
import type { Product } from "../agent-paths.js";
import { downloadArtifact, type DownloadedArtifact, type DownloadOptions } from "./download.js";
import type { DownloadFailures } from "./download-failures.js";
import { readReleaseManifest } from "./release-manifest.js";
import { ReleaseError } from "./release-error.js";
import type { VersionStore } from "./version-store.js";

export interface PrepareUpdateOptions {
  product: Product;
  /** The release index; may be undefined when the spec is a URL. */
  index: ReleaseIndex | undefined;
  /** The version_control value: "stable", "dev", a version or a URL. */
  spec: string;
  /** "linux/amd64" or "linux/arm64". */
  platform: string;
  store: VersionStore;
  /** Where downloads are cached (AgentPaths.downloadDir). */
  downloadDir: string;
  logger: Logger;
  /** Download tuning (progress, attempts, timeouts). */
  download?: Pick<DownloadOptions, "progress" | "terminal" | "attempts" | "retryDelayMs" | "stallTimeoutMs" | "maxBytes">;
  /** Entries whose artifact did not match them, and when they may be tried again. */
  failures?: DownloadFailures;
}

export type PreparedUpdate =
  /** `version` is installed in `versionDir` and differs from the current one: ready to activate. */
  | { kind: "ready"; version: string; versionDir: string }
  /** Nothing to do; `reason` says why when it is not simply "already current" (a bad mark). */
  | { kind: "upToDate"; version: string | undefined; reason?: string }
  /** `version`'s artifact did not match its entry before; it is not downloaded again yet (already reported). */
  | { kind: "deferred"; version: string; reason: string }
  | { kind: "error"; error: string };

export async function prepareUpdate(options: PrepareUpdateOptions): Promise<PreparedUpdate> {
  const { product, store, logger } = options;
  try {
    const current = await store.current();
    const bad = await store.badVersions();
    const resolved = resolveRelease(options.index, product, options.spec, options.platform, bad);
    if (!resolved.ok) {
      if (resolved.markedBad !== undefined) return { kind: "upToDate", version: current, reason: resolved.reason };
      return { kind: "error", error: resolved.reason };
    }
    let version = resolved.version;
    // A URL artifact (with its pin) is named by its source until it is read.
    const source = resolved.version;
    if (resolved.fromUrl) {
      // A URL is fetched once; the version it turned out to be stands for it afterwards.
      const known = await store.sourceVersion(source);
      if (known !== undefined && (await store.installed()).includes(known)) version = known;
    }
    if (version === current) return { kind: "upToDate", version: current };
    if (bad.has(version)) return { kind: "upToDate", version: current, reason: `${product} ${version} is marked bad` };
    if ((await store.installed()).includes(version)) return { kind: "ready", version, versionDir: store.versionDir(version) };

    const sha256 = resolved.artifact.sha256;
    const held = sha256 === undefined ? undefined : await options.failures?.holding(version, sha256);
    if (held) return { kind: "deferred", version, reason: `${held.reason}; not downloaded again before ${held.retryAt.toISOString()}` };

    logger.info(`downloading ${product} ${version}`, { url: resolved.artifact.url });
    let downloaded: DownloadedArtifact;
    try {
      downloaded = await downloadArtifact({
        ...options.download,
        url: resolved.artifact.url,
        sha256,
        size: resolved.artifact.size,
        cacheDir: options.downloadDir,
        logger,
      });
    } catch (e) {
      if (!(e instanceof ReleaseError && e.kind === "mismatch" && sha256 !== undefined && options.failures)) throw e;
      const retryAt = await options.failures.failed(version, sha256, e.message);
      return { kind: "error", error: `${e.message}; not downloaded again before ${retryAt.toISOString()} unless the release index changes it` };
    }
    try {
      if (!resolved.fromUrl) {
        const versionDir = await store.install(version, downloaded.file);
        await options.failures?.succeeded(version);
        logger.info(`installed ${product} ${version} (sha256 ${downloaded.sha256} verified)`, { versionDir });
        return { kind: "ready", version, versionDir };
      }
      const installed = await store.installIdentified(downloaded.file, (unpacked) =>
        readReleaseManifest(unpacked, product, options.platform, resolved.artifact.url),
      );
      await store.recordSource(source, installed.version);
      if (bad.has(installed.version)) return { kind: "upToDate", version: current, reason: `${product} ${installed.version} is marked bad` };
      if (installed.version === current) return { kind: "upToDate", version: current };
      const how = sha256 === undefined ? "over https" : `sha256 ${sha256} verified`;
      logger.info(`installed ${product} ${installed.version} from ${resolved.artifact.url} (${how}; its svc-release.json names the version)`, {
        versionDir: installed.versionDir,
      });
      return { kind: "ready", ...installed };
    } finally {
      // The installed folder is the lasting copy; the download has served its purpose.
      await rm(downloaded.file, { force: true });
    }
  } catch (e) {
    return { kind: "error", error: errorMessage(e) };
  }
}
