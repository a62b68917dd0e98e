// Registry modules: a package found through the registry's manifest, checked by its sha256,
// unpacked into the cache and run from there; a bad package is never installed, and a pinned
// version already in the cache needs no registry at all.
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { ModuleConfig } from "../../core/index.js";
import { hostPlatform, resolveModulePackage } from "../../targets/linux/modules/index.js";

const module = (version: string): ModuleConfig => ({
  type: "registry",
  name: "counter",
  executable_path: "",
  log_level: "",
  env: {},
  module_id: "acme:counter",
  version,
  startup_timeout: "5m",
  startup_timeout_ms: 300_000,
});

describe("registry modules", () => {
  let dir: string;
  let registry: string;
  let cacheDir: string;
  let sha: string;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), "svc-registry-"));
    registry = join(dir, "registry");
    cacheDir = join(dir, "cache");
    const pkg = join(dir, "pkg");
    mkdirSync(join(pkg, "bin"), { recursive: true });
    writeFileSync(join(pkg, "bin/run"), "#!/bin/sh\necho counter\n");
    chmodSync(join(pkg, "bin/run"), 0o755);
    mkdirSync(join(registry, "acme/counter"), { recursive: true });
    execFileSync("tar", ["-czf", join(registry, "acme/counter/counter-1.2.0.tar.gz"), "-C", pkg, "bin"]);
    sha = createHash("sha256").update(readFileSync(join(registry, "acme/counter/counter-1.2.0.tar.gz"))).digest("hex");
    writeManifest("1.2.0", sha);
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  function writeManifest(name: string, sha256: string) {
    const manifest = { version: "1.2.0", platforms: { [hostPlatform()]: { url: "counter-1.2.0.tar.gz", sha256, entrypoint: "bin/run" } } };
    writeFileSync(join(registry, `acme/counter/${name}.json`), JSON.stringify(manifest));
  }
  const options = () => ({ registryUrl: pathToFileURL(registry).href, cacheDir });

  it("downloads, verifies and unpacks the package, and runs its entrypoint from the cache", async () => {
    const found = await resolveModulePackage(module("1.2.0"), options());
    expect(found.version).toBe("1.2.0");
    expect(found.executable).toBe(join(cacheDir, "acme_counter/1.2.0/bin/run"));
    expect(execFileSync(found.executable).toString()).toBe("counter\n");
  });

  it("follows latest to the version its manifest names", async () => {
    writeManifest("latest", sha);
    expect((await resolveModulePackage(module("latest"), options())).version).toBe("1.2.0");
  });

  it("refuses a package whose sha256 does not match, and installs nothing", async () => {
    writeManifest("1.2.0", "0".repeat(64));
    await expect(resolveModulePackage(module("1.2.0"), options())).rejects.toThrow(/sha256 is [0-9a-f]{64}, the manifest says 0{64}; not installed/);
    expect(existsSync(join(cacheDir, "acme_counter/1.2.0"))).toBe(false);
  });

  it("starts a cached pinned version without the registry", async () => {
    await resolveModulePackage(module("1.2.0"), options());
    rmSync(registry, { recursive: true });
    const found = await resolveModulePackage(module("1.2.0"), { cacheDir });
    expect(found.executable).toBe(join(cacheDir, "acme_counter/1.2.0/bin/run"));
  });

  it("says what is missing when the registry cannot be reached or is not configured", async () => {
    await expect(resolveModulePackage(module("2.0.0"), options())).rejects.toThrow(/cannot read the manifest of acme:counter 2.0.0: .*ENOENT/);
    await expect(resolveModulePackage(module("2.0.0"), { cacheDir })).rejects.toThrow(/no module registry is configured \(set SVC_MODULE_REGISTRY\)/);
  });
});
