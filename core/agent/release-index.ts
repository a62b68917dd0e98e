// The release index: one JSON document listing, for each product, its channels and its versions
// with one artifact per platform.
//   { "svc-server": { "channels": { "stable": "1.2.0", "dev": "1.3.0-dev.1" },
//                     "versions": { "1.2.0": { "linux/amd64": { "url": "svc-server-1.2.0-linux-amd64.tar.gz",
//                                                              "sha256": "<64 hex>", "size": 1234 } } } },
//     "agent": { ... } }
// Relative `url`s are resolved against the index's own URL. Parsing never throws: a bad entry is
// left out and named in `problems`, so one broken line does not stop a fleet from updating.
import { parseSemver } from "./semver.js";
import { resolveUrlReference } from "./resolve-url.js";
import { CHANNELS, classifyVersionSpec, type Channel, type ClassifiedVersionSpec } from "./version-spec.js";

export type ReleaseProduct = "svc-server" | "agent";
export const RELEASE_PRODUCTS: readonly ReleaseProduct[] = ["svc-server", "agent"];

/** What to download. From the index `sha256` is always there; a URL spec has it when pinned. */
export interface ReleaseArtifact {
  url: string;
  sha256?: string;
  size?: number;
}

export interface ProductReleases {
  channels: Partial<Record<Channel, string>>;
  /** version -> platform ("linux/amd64") -> artifact. */
  versions: Record<string, Record<string, ReleaseArtifact>>;
}

export type ReleaseIndex = Partial<Record<ReleaseProduct, ProductReleases>>;

export interface ParsedReleaseIndex {
  index: ReleaseIndex;
  /** `<path>: <what is wrong>`, one per entry left out. */
  problems: string[];
}

const SHA256 = /^[0-9a-fA-F]{64}$/;
const PLATFORM = /^[a-z0-9]+\/[a-z0-9_]+$/;
const URL_SCHEMES = /^(https?|file):/i;

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

const key = (name: string) => `[${JSON.stringify(name)}]`;

function parseArtifact(value: unknown, where: string, indexUrl: string, problems: string[]): ReleaseArtifact | undefined {
  if (!isObject(value)) {
    problems.push(`${where}: must be an object with "url", "sha256" and "size"`);
    return undefined;
  }
  const { url, sha256, size } = value;
  let bad = false;
  let resolved = "";
  if (typeof url !== "string" || url.trim() === "") {
    problems.push(`${where}.url: must be a non-empty string`);
    bad = true;
  } else {
    resolved = resolveUrlReference(indexUrl, url.trim());
    if (!URL_SCHEMES.test(resolved)) {
      problems.push(`${where}.url: must be an http, https or file URL (or relative to the index), got ${JSON.stringify(url)}`);
      bad = true;
    }
  }
  if (typeof sha256 !== "string" || !SHA256.test(sha256)) {
    problems.push(`${where}.sha256: must be 64 hex digits`);
    bad = true;
  }
  if (size !== undefined && (typeof size !== "number" || !Number.isSafeInteger(size) || size < 0)) {
    problems.push(`${where}.size: must be a whole number of bytes`);
    bad = true;
  }
  if (bad) return undefined;
  const artifact: ReleaseArtifact = { url: resolved, sha256: (sha256 as string).toLowerCase() };
  if (size !== undefined) artifact.size = size as number;
  return artifact;
}

function parseProduct(value: unknown, product: string, indexUrl: string, problems: string[]): ProductReleases | undefined {
  if (!isObject(value)) {
    problems.push(`${product}: must be an object with "channels" and "versions"`);
    return undefined;
  }
  const releases: ProductReleases = { channels: {}, versions: {} };
  const versions = value.versions;
  if (versions !== undefined && !isObject(versions)) {
    problems.push(`${product}.versions: must be an object (version -> platform -> artifact)`);
  } else if (versions) {
    for (const version of Object.keys(versions)) {
      const where = `${product}.versions${key(version)}`;
      if (!parseSemver(version)) {
        problems.push(`${where}: not a semantic version`);
        continue;
      }
      const platforms = versions[version];
      if (!isObject(platforms)) {
        problems.push(`${where}: must be an object (platform -> artifact)`);
        continue;
      }
      const byPlatform: Record<string, ReleaseArtifact> = {};
      for (const platform of Object.keys(platforms)) {
        const at = `${where}${key(platform)}`;
        if (!PLATFORM.test(platform)) {
          problems.push(`${at}: a platform is written like "linux/amd64"`);
          continue;
        }
        const artifact = parseArtifact(platforms[platform], at, indexUrl, problems);
        if (artifact) byPlatform[platform] = artifact;
      }
      releases.versions[version] = byPlatform;
    }
  }
  const channels = value.channels;
  if (channels !== undefined && !isObject(channels)) {
    problems.push(`${product}.channels: must be an object such as {"stable": "1.2.0"}`);
  } else if (channels) {
    for (const name of Object.keys(channels)) {
      const where = `${product}.channels.${name}`;
      const target = channels[name];
      if (CHANNELS.indexOf(name as Channel) < 0) {
        problems.push(`${where}: unknown channel (known: ${CHANNELS.join(", ")})`);
      } else if (typeof target !== "string" || !parseSemver(target)) {
        problems.push(`${where}: must be a semantic version`);
      } else if (!Object.prototype.hasOwnProperty.call(releases.versions, target)) {
        problems.push(`${where}: ${target} is not listed (usably) in ${product}.versions`);
      } else {
        releases.channels[name as Channel] = target;
      }
    }
  }
  return releases;
}

/** Reads a release index fetched from `indexUrl`; keys other than the products are ignored. */
export function parseReleaseIndex(json: unknown, indexUrl: string): ParsedReleaseIndex {
  const problems: string[] = [];
  const index: ReleaseIndex = {};
  if (!isObject(json)) {
    problems.push(`(index): must be an object with "svc-server" and "agent"`);
    return { index, problems };
  }
  for (const product of RELEASE_PRODUCTS) {
    if (json[product] === undefined) continue;
    const releases = parseProduct(json[product], product, indexUrl, problems);
    if (releases) index[product] = releases;
  }
  return { index, problems };
}

export type ReleaseResolution =
  | { ok: true; version: string; artifact: ReleaseArtifact; fromUrl: boolean }
  /** `markedBad` names the version refused because it failed before: "no update", not an error. */
  | { ok: false; reason: string; markedBad?: string };

const productName = (product: ReleaseProduct) => (product === "agent" ? "svc-agent" : "svc-server");

/**
 * The version and artifact `spec` stands for on `platform`. A version in `bad` (one that was
 * rolled back) is never chosen: a channel still pointing at it means "no update" until the
 * channel moves on to a newer version.
 */
export function resolveRelease(
  index: ReleaseIndex | undefined,
  product: ReleaseProduct,
  spec: string | ClassifiedVersionSpec,
  platform: string,
  bad: ReadonlySet<string>,
): ReleaseResolution {
  const classified = typeof spec === "string" ? classifyVersionSpec(spec) : spec;
  const name = productName(product);
  switch (classified.kind) {
    case "invalid":
      return { ok: false, reason: `version_control.${product}: ${classified.reason}` };
    case "url": {
      if (bad.has(classified.source)) {
        return { ok: false, markedBad: classified.source, reason: `${name} from ${classified.source} is marked bad; not retried until the URL changes` };
      }
      // The artifact names its version itself once downloaded (its svc-release.json); until then
      // the URL (with its pin) stands for it.
      const artifact: ReleaseArtifact = { url: classified.url };
      if (classified.sha256 !== undefined) artifact.sha256 = classified.sha256;
      return { ok: true, version: classified.source, artifact, fromUrl: true };
    }
    case "channel":
    case "version": {
      const releases = index?.[product];
      if (!releases) return { ok: false, reason: `the release index lists no ${name} releases` };
      let version: string;
      if (classified.kind === "channel") {
        const target = releases.channels[classified.channel];
        if (target === undefined) return { ok: false, reason: `the release index has no "${classified.channel}" channel for ${name}` };
        version = target;
        if (bad.has(version)) {
          return {
            ok: false,
            markedBad: version,
            reason: `${name} ${version} (the ${classified.channel} channel) is marked bad; not retried until a newer version appears`,
          };
        }
      } else {
        version = classified.version;
        if (bad.has(version)) {
          return { ok: false, markedBad: version, reason: `${name} ${version} is marked bad; not retried until a different version is asked for` };
        }
      }
      const platforms = Object.prototype.hasOwnProperty.call(releases.versions, version) ? releases.versions[version] : undefined;
      if (!platforms) return { ok: false, reason: `${name} ${version} is not in the release index` };
      const artifact = Object.prototype.hasOwnProperty.call(platforms, platform) ? platforms[platform] : undefined;
      if (!artifact) {
        const known = Object.keys(platforms);
        return { ok: false, reason: `${name} ${version} has no artifact for ${platform}${known.length ? ` (only ${known.join(", ")})` : ""}` };
      }
      return { ok: true, version, artifact, fromUrl: false };
    }
  }
}
