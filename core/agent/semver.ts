// Semantic versions (semver 2.0): parsing, and the precedence order releases are compared by.
// Build metadata is kept in the text but ignored when comparing, as the specification says.

export interface SemVer {
  major: number;
  minor: number;
  patch: number;
  /** Dot-separated pre-release identifiers ("dev", "1" for 1.3.0-dev.1); empty for a release. */
  prerelease: readonly string[];
  /** Build metadata identifiers (after "+"); not part of the order. */
  build: readonly string[];
  /** The text as given. */
  text: string;
}

const NUMERIC = /^(0|[1-9][0-9]*)$/;
const IDENTIFIER = /^[0-9A-Za-z-]+$/;
const CORE = /^(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)$/;

/** The version `text` stands for, or undefined when it is not a semantic version. */
export function parseSemver(text: string): SemVer | undefined {
  if (typeof text !== "string" || text.length > 256) return undefined;
  const plus = text.indexOf("+");
  const beforeBuild = plus < 0 ? text : text.slice(0, plus);
  const build = plus < 0 ? [] : text.slice(plus + 1).split(".");
  const dash = beforeBuild.indexOf("-");
  const core = dash < 0 ? beforeBuild : beforeBuild.slice(0, dash);
  const prerelease = dash < 0 ? [] : beforeBuild.slice(dash + 1).split(".");
  const match = CORE.exec(core);
  if (!match) return undefined;
  for (const id of prerelease) {
    if (!IDENTIFIER.test(id)) return undefined;
    // Numeric pre-release identifiers must not have leading zeros; "0a" is alphanumeric and fine.
    if (/^[0-9]+$/.test(id) && !NUMERIC.test(id)) return undefined;
  }
  for (const id of build) if (!IDENTIFIER.test(id)) return undefined;
  const numbers = [Number(match[1]), Number(match[2]), Number(match[3])];
  if (!numbers.every((n) => n <= Number.MAX_SAFE_INTEGER)) return undefined;
  return { major: numbers[0]!, minor: numbers[1]!, patch: numbers[2]!, prerelease, build, text };
}

export function isSemver(text: string): boolean {
  return parseSemver(text) !== undefined;
}

function compareIdentifiers(a: string, b: string): number {
  const an = NUMERIC.test(a);
  const bn = NUMERIC.test(b);
  // Numeric identifiers sort below alphanumeric ones, and among themselves by value.
  // Without leading zeros, the longer number is the larger; this holds past 2^53 too.
  if (an && bn && a.length !== b.length) return a.length < b.length ? -1 : 1;
  if (an !== bn) return an ? -1 : 1;
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Precedence of two parsed versions: negative when a comes first, 0 when equal, positive after. */
export function compareSemver(a: SemVer, b: SemVer): number {
  if (a.major !== b.major) return a.major < b.major ? -1 : 1;
  if (a.minor !== b.minor) return a.minor < b.minor ? -1 : 1;
  if (a.patch !== b.patch) return a.patch < b.patch ? -1 : 1;
  // A pre-release comes before the release it leads up to.
  if (a.prerelease.length === 0 || b.prerelease.length === 0) {
    return a.prerelease.length === b.prerelease.length ? 0 : a.prerelease.length === 0 ? 1 : -1;
  }
  const n = Math.min(a.prerelease.length, b.prerelease.length);
  for (let i = 0; i < n; i++) {
    const c = compareIdentifiers(a.prerelease[i]!, b.prerelease[i]!);
    if (c !== 0) return c;
  }
  return a.prerelease.length === b.prerelease.length ? 0 : a.prerelease.length < b.prerelease.length ? -1 : 1;
}

/**
 * Orders version texts: semantic versions by precedence (ties, such as differing build
 * metadata, by text), anything else after them by text. Usable as an `Array.sort` comparator.
 */
export function compareVersionTexts(a: string, b: string): number {
  const pa = parseSemver(a);
  const pb = parseSemver(b);
  if (pa && pb) {
    const c = compareSemver(pa, pb);
    if (c !== 0) return c;
  } else if (pa || pb) {
    return pa ? -1 : 1;
  }
  return a < b ? -1 : a > b ? 1 : 0;
}
