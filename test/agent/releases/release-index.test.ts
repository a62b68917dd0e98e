// The release index and what version_control values resolve to: channels, pinned versions, URLs,
// bad marks, platforms; every bad field named; the same answers in XS as in Node.
import fc from "fast-check";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  classifyVersionSpec,
  compareVersionTexts,
  parseReleaseIndex,
  parseSemver,
  resolveRelease,
  resolveUrlReference,
} from "../../../core/index.js";
import { ScenarioInXs } from "../../../tools/xs/scenario-in-xs.js";
import { runReleaseScenario, type ReleaseScenarioInput } from "./release-scenario.js";

const sha = (c: string) => c.repeat(64);
const INDEX_URL = "https://releases.example.com/svc/index.json";

const indexJson = {
  "svc-server": {
    channels: { stable: "1.2.0", dev: "1.3.0-dev.1" },
    versions: {
      "1.1.0": { "linux/amd64": { url: "svc-server-1.1.0-linux-amd64.tar.gz", sha256: sha("a"), size: 10 } },
      "1.2.0": {
        "linux/amd64": { url: "svc-server-1.2.0-linux-amd64.tar.gz", sha256: sha("b"), size: 20 },
        "linux/arm64": { url: "https://cdn.example.com/x/svc-server-1.2.0-linux-arm64.tar.gz", sha256: sha("C"), size: 21 },
      },
      "1.3.0-dev.1": { "linux/amd64": { url: "../dev/svc-server-1.3.0-dev.1.tar.gz", sha256: sha("d") } },
    },
  },
  agent: {
    channels: { stable: "0.5.0" },
    versions: { "0.5.0": { "linux/amd64": { url: "svc-agent-0.5.0.tar.gz", sha256: sha("e"), size: 5 } } },
  },
};

describe("semantic versions", () => {
  it("orders pre-releases before their release, as semver 2.0 lists them", () => {
    const ordered = ["1.0.0-alpha", "1.0.0-alpha.1", "1.0.0-alpha.beta", "1.0.0-beta", "1.0.0-beta.2", "1.0.0-beta.11", "1.0.0-rc.1", "1.0.0", "1.0.1", "1.10.0", "2.0.0"];
    const shuffled = [...ordered].reverse();
    expect(shuffled.sort(compareVersionTexts)).toEqual(ordered);
  });

  it("refuses what is not a semantic version", () => {
    for (const text of ["1.2", "01.2.3", "1.2.3-01", "1.2.3-", "1.2.3+", "v1.2.3", "1.2.3.4", "", "1.2.3-a..b"]) {
      expect(parseSemver(text), text).toBeUndefined();
    }
    expect(parseSemver("1.2.3-rc.1+build.5")).toMatchObject({ major: 1, minor: 2, patch: 3, prerelease: ["rc", "1"], build: ["build", "5"] });
  });

  it("is a total order consistent with itself on any versions", () => {
    const id = fc.oneof(fc.nat({ max: 30 }).map(String), fc.constantFrom("alpha", "beta", "rc", "dev", "x-1"));
    const version = fc
      .tuple(fc.nat(3), fc.nat(3), fc.nat(3), fc.array(id, { maxLength: 3 }))
      .map(([a, b, c, pre]) => `${a}.${b}.${c}${pre.length ? `-${pre.join(".")}` : ""}`);
    fc.assert(
      fc.property(version, version, version, (a, b, c) => {
        // (+ 0 makes -0 and 0 one answer: both mean "equal".)
        expect(Math.sign(compareVersionTexts(a, b)) + 0).toBe(-Math.sign(compareVersionTexts(b, a)) + 0);
        if (compareVersionTexts(a, b) <= 0 && compareVersionTexts(b, c) <= 0) expect(compareVersionTexts(a, c)).toBeLessThanOrEqual(0);
      }),
    );
  });
});

describe("version specs", () => {
  it("tells channels, versions and URLs apart, and says why anything else is refused", () => {
    expect(classifyVersionSpec("stable")).toEqual({ kind: "channel", channel: "stable" });
    expect(classifyVersionSpec("dev")).toEqual({ kind: "channel", channel: "dev" });
    expect(classifyVersionSpec("1.2.3")).toEqual({ kind: "version", version: "1.2.3" });
    expect(classifyVersionSpec("v1.2.3-rc.1")).toEqual({ kind: "version", version: "1.2.3-rc.1" });
    const https = "https://example.com/svc-server";
    expect(classifyVersionSpec(https)).toEqual({ kind: "url", url: https, source: https });
    const pin = sha("a");
    expect(classifyVersionSpec(`http://10.0.0.2:8000/a.tar.gz#sha256=${pin.toUpperCase()}`)).toEqual({
      kind: "url",
      url: "http://10.0.0.2:8000/a.tar.gz",
      sha256: pin,
      source: `http://10.0.0.2:8000/a.tar.gz#sha256=${pin}`,
    });
    expect(classifyVersionSpec(`file:///opt/builds/svc-server.tar.gz#sha256=${pin}`)).toMatchObject({ kind: "url", url: "file:///opt/builds/svc-server.tar.gz", sha256: pin });
    expect(classifyVersionSpec(`${https}#sha256=${pin}`)).toMatchObject({ kind: "url", url: https, sha256: pin });
    // Run as root, an artifact needs a source that vouches for it: http and file only with a pin.
    expect(classifyVersionSpec("http://10.0.0.2:8000/a.tar.gz")).toEqual({
      kind: "invalid",
      reason: '"http://10.0.0.2:8000/a.tar.gz": an http URL is accepted only pinned by the artifact\'s sha256, as "http://10.0.0.2:8000/a.tar.gz#sha256=<64 hex digits>" (or served over https)',
    });
    expect(classifyVersionSpec("file:///opt/builds/svc-server")).toMatchObject({ kind: "invalid", reason: expect.stringContaining("a file URL is accepted only pinned") });
    expect(classifyVersionSpec(`${https}#sha256=abc`)).toMatchObject({ kind: "invalid", reason: expect.stringContaining("#sha256=<64 hex digits>") });
    expect(classifyVersionSpec(`${https}#top`)).toMatchObject({ kind: "invalid" });
    for (const bad of ["", "latest", "1.2", "ftp://example.com/x", "http://", "file:relative/path"]) {
      const spec = classifyVersionSpec(bad);
      expect(spec.kind, bad).toBe("invalid");
      expect(spec.kind === "invalid" && spec.reason.length > 10).toBe(true);
    }
  });
});

describe("relative URLs in the index", () => {
  it("resolve against the index URL the way a browser would", () => {
    const base = "https://releases.example.com/svc/index.json?x=1";
    expect(resolveUrlReference(base, "a.tar.gz")).toBe("https://releases.example.com/svc/a.tar.gz");
    expect(resolveUrlReference(base, "../dev/b.tar.gz")).toBe("https://releases.example.com/dev/b.tar.gz");
    expect(resolveUrlReference(base, "/top/c.tar.gz")).toBe("https://releases.example.com/top/c.tar.gz");
    expect(resolveUrlReference(base, "//cdn.example.com/d")).toBe("https://cdn.example.com/d");
    expect(resolveUrlReference(base, "http://other/e")).toBe("http://other/e");
    expect(resolveUrlReference("file:///srv/releases/index.json", "svc-server.tar.gz")).toBe("file:///srv/releases/svc-server.tar.gz");
    for (const ref of ["a/b/../c", "./x", "../../../y", "q?z=1"]) {
      expect(resolveUrlReference(base, ref), ref).toBe(new URL(ref, base).href);
    }
  });
});

describe("the release index", () => {
  it("reads channels and versions, with URLs made absolute and no problems", () => {
    const { index, problems } = parseReleaseIndex(indexJson, INDEX_URL);
    expect(problems).toEqual([]);
    expect(index["svc-server"]?.channels).toEqual({ stable: "1.2.0", dev: "1.3.0-dev.1" });
    expect(index["svc-server"]?.versions["1.2.0"]?.["linux/amd64"]).toEqual({
      url: "https://releases.example.com/svc/svc-server-1.2.0-linux-amd64.tar.gz",
      sha256: sha("b"),
      size: 20,
    });
    expect(index["svc-server"]?.versions["1.2.0"]?.["linux/arm64"]?.sha256).toBe(sha("c"));
    expect(index["svc-server"]?.versions["1.3.0-dev.1"]?.["linux/amd64"]?.url).toBe("https://releases.example.com/dev/svc-server-1.3.0-dev.1.tar.gz");
  });

  it("names every bad field by its path, leaves those entries out and keeps the rest", () => {
    const broken = {
      "svc-server": {
        channels: { stable: "9.9.9", dev: 3, nightly: "1.0.0" },
        versions: {
          "1.0.0": {
            "linux/amd64": { url: "ok.tar.gz", sha256: "abc", size: 1 },
            "linux/arm64": { url: "", sha256: sha("f"), size: -1 },
            "Linux AMD64": { url: "x", sha256: sha("f") },
            "linux/riscv64": "nope",
          },
          "1.0.1": { "linux/amd64": { url: "ftp://x/y", sha256: sha("f"), size: 1.5 } },
          "not-a-version": {},
          "1.0.2": [],
          "1.0.3": { "linux/amd64": { url: "good.tar.gz", sha256: sha("0"), size: 3 } },
        },
      },
      agent: "yes",
    };
    const { index, problems } = parseReleaseIndex(broken, INDEX_URL);
    expect(problems).toEqual([
      'svc-server.versions["1.0.0"]["linux/amd64"].sha256: must be 64 hex digits',
      'svc-server.versions["1.0.0"]["linux/arm64"].url: must be a non-empty string',
      'svc-server.versions["1.0.0"]["linux/arm64"].size: must be a whole number of bytes',
      'svc-server.versions["1.0.0"]["Linux AMD64"]: a platform is written like "linux/amd64"',
      'svc-server.versions["1.0.0"]["linux/riscv64"]: must be an object with "url", "sha256" and "size"',
      'svc-server.versions["1.0.1"]["linux/amd64"].url: must be an http, https or file URL (or relative to the index), got "ftp://x/y"',
      'svc-server.versions["1.0.1"]["linux/amd64"].size: must be a whole number of bytes',
      'svc-server.versions["not-a-version"]: not a semantic version',
      'svc-server.versions["1.0.2"]: must be an object (platform -> artifact)',
      "svc-server.channels.stable: 9.9.9 is not listed (usably) in svc-server.versions",
      "svc-server.channels.dev: must be a semantic version",
      "svc-server.channels.nightly: unknown channel (known: stable, dev)",
      'agent: must be an object with "channels" and "versions"',
    ]);
    expect(index["svc-server"]?.versions["1.0.3"]?.["linux/amd64"]?.url).toBe("https://releases.example.com/svc/good.tar.gz");
    expect(index["svc-server"]?.versions["1.0.0"]).toEqual({});
    expect(index.agent).toBeUndefined();
    expect(parseReleaseIndex([1, 2], INDEX_URL).problems).toEqual(['(index): must be an object with "svc-server" and "agent"']);
  });
});

describe("resolving a version spec", () => {
  const { index } = parseReleaseIndex(indexJson, INDEX_URL);
  const none = new Set<string>();

  it("follows channels and pinned versions to the artifact for this platform", () => {
    expect(resolveRelease(index, "svc-server", "stable", "linux/amd64", none)).toMatchObject({ ok: true, version: "1.2.0", artifact: { sha256: sha("b") } });
    expect(resolveRelease(index, "svc-server", "dev", "linux/amd64", none)).toMatchObject({ ok: true, version: "1.3.0-dev.1" });
    expect(resolveRelease(index, "svc-server", "1.1.0", "linux/amd64", none)).toMatchObject({ ok: true, version: "1.1.0", fromUrl: false });
    expect(resolveRelease(index, "agent", "stable", "linux/amd64", none)).toMatchObject({ ok: true, version: "0.5.0" });
  });

  it("says what is missing: a version, a platform, a channel", () => {
    expect(resolveRelease(index, "svc-server", "7.0.0", "linux/amd64", none)).toEqual({ ok: false, reason: "svc-server 7.0.0 is not in the release index" });
    expect(resolveRelease(index, "svc-server", "1.1.0", "linux/arm64", none)).toEqual({ ok: false, reason: "svc-server 1.1.0 has no artifact for linux/arm64 (only linux/amd64)" });
    expect(resolveRelease(index, "agent", "dev", "linux/amd64", none)).toEqual({ ok: false, reason: 'the release index has no "dev" channel for svc-agent' });
    expect(resolveRelease(index, "svc-server", "latest", "linux/amd64", none)).toMatchObject({ ok: false, reason: expect.stringContaining("version_control.svc-server") });
    expect(resolveRelease({}, "agent", "stable", "linux/amd64", none)).toEqual({ ok: false, reason: "the release index lists no svc-agent releases" });
  });

  it("treats a channel on a version marked bad as no update, until the channel moves on", () => {
    const bad = new Set(["1.2.0"]);
    const held = resolveRelease(index, "svc-server", "stable", "linux/amd64", bad);
    expect(held).toMatchObject({ ok: false, markedBad: "1.2.0" });
    expect(!held.ok && held.reason).toMatch(/marked bad; not retried until a newer version appears/);
    expect(resolveRelease(index, "svc-server", "1.2.0", "linux/amd64", bad)).toMatchObject({ ok: false, markedBad: "1.2.0" });
    const moved = parseReleaseIndex({ ...indexJson, "svc-server": { ...indexJson["svc-server"], channels: { stable: "1.3.0-dev.1" } } }, INDEX_URL).index;
    expect(resolveRelease(moved, "svc-server", "stable", "linux/amd64", bad)).toMatchObject({ ok: true, version: "1.3.0-dev.1" });
  });

  it("takes a URL as an artifact (checked against its pin, if any), named by the URL until its svc-release.json is read", () => {
    const https = "https://builds.example.com/svc-server.tar.gz";
    expect(resolveRelease(undefined, "svc-server", https, "linux/amd64", none)).toEqual({ ok: true, version: https, artifact: { url: https }, fromUrl: true });
    const url = "http://192.168.1.5:8000/svc-server.tar.gz";
    const pinned = `${url}#sha256=${sha("d")}`;
    expect(resolveRelease(undefined, "svc-server", pinned, "linux/amd64", none)).toEqual({
      ok: true,
      version: pinned,
      artifact: { url, sha256: sha("d") },
      fromUrl: true,
    });
    expect(resolveRelease(undefined, "svc-server", pinned, "linux/amd64", new Set([pinned]))).toMatchObject({ ok: false, markedBad: pinned });
    expect(resolveRelease(undefined, "svc-server", url, "linux/amd64", none)).toMatchObject({ ok: false, reason: expect.stringContaining("only pinned") });
  });
});

describe("in XS", () => {
  let xs: ScenarioInXs;
  beforeAll(async () => {
    xs = await ScenarioInXs.start(join(import.meta.dirname, "release-scenario.ts"));
  });
  afterAll(() => xs?.close());

  it("parses and resolves exactly as Node does", async () => {
    const input: ReleaseScenarioInput = {
      indexJson: { ...indexJson, agent: { channels: { stable: "0.5.0", dev: "x" }, versions: { "0.5.0": { "linux/amd64": { url: "a", sha256: "no" } } } } },
      indexUrl: INDEX_URL,
      queries: [
        { product: "svc-server", spec: "stable", platform: "linux/amd64" },
        { product: "svc-server", spec: "stable", platform: "linux/amd64", bad: ["1.2.0"] },
        { product: "svc-server", spec: "dev", platform: "linux/arm64" },
        { product: "svc-server", spec: "v1.1.0", platform: "linux/amd64" },
        { product: "svc-server", spec: "file:///tmp/svc-server", platform: "linux/amd64" },
        { product: "agent", spec: "stable", platform: "linux/amd64" },
      ],
    };
    const inXs = await xs.run("runReleaseScenario", input);
    expect(inXs).toBe(JSON.stringify(runReleaseScenario(input)));
  });
});
