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
  first_run_timeout: "1h",
  first_run_timeout_ms: 3_600_000,
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
    // A first-run script that counts its runs in the package's folder, and fails while told to.
    writeFileSync(join(pkg, "bin/setup"), '#!/bin/sh\necho ran >> runs\nif [ -n "$SETUP_FAILS" ]; then echo "no compiler here" >&2; exit 3; fi\nif [ -n "$SETUP_HANGS" ]; then exec sleep 60; fi\n');
    chmodSync(join(pkg, "bin/setup"), 0o755);
    mkdirSync(join(registry, "acme/counter"), { recursive: true });
    execFileSync("tar", ["-czf", join(registry, "acme/counter/counter-1.2.0.tar.gz"), "-C", pkg, "bin"]);
    sha = createHash("sha256").update(readFileSync(join(registry, "acme/counter/counter-1.2.0.tar.gz"))).digest("hex");
    writeManifest("1.2.0", sha);
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  function writeManifest(name: string, sha256: string, extra: Record<string, string> = {}) {
    const manifest = { version: "1.2.0", platforms: { [hostPlatform()]: { url: "counter-1.2.0.tar.gz", sha256, entrypoint: "bin/run", ...extra } } };
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

  describe("with a first-run script", () => {
    const runs = () => readFileSync(join(cacheDir, "acme_counter/1.2.0/runs"), "utf8").trim().split("\n").length;
    const withEnv = (env: Record<string, string>, timeout?: number): ModuleConfig => ({
      ...module("1.2.0"),
      env,
      ...(timeout === undefined ? {} : { first_run_timeout: "1s", first_run_timeout_ms: timeout }),
    });

    it("runs it once, in the package's folder, before the first start", async () => {
      writeManifest("1.2.0", sha, { first_run: "bin/setup" });
      await resolveModulePackage(module("1.2.0"), options());
      await resolveModulePackage(module("1.2.0"), options());
      expect(runs()).toBe(1);
    });

    it("refuses to start while it fails, with its status and output, and tries again next time", async () => {
      writeManifest("1.2.0", sha, { first_run: "bin/setup" });
      const failing = resolveModulePackage(withEnv({ SETUP_FAILS: "1" }), options());
      await expect(failing).rejects.toThrow(/the first-run script bin\/setup of acme:counter exited with status 3: no compiler here; the module starts once it succeeds/);
      await resolveModulePackage(module("1.2.0"), options());
      expect(runs()).toBe(2);
    });

    it("is stopped at first_run_timeout", async () => {
      writeManifest("1.2.0", sha, { first_run: "bin/setup" });
      const hanging = resolveModulePackage(withEnv({ SETUP_HANGS: "1" }, 300), options());
      await expect(hanging).rejects.toThrow(/bin\/setup of acme:counter did not finish within first_run_timeout 1s/);
    });

    it("must be a path inside the package", async () => {
      writeManifest("1.2.0", sha, { first_run: "../../etc/evil" });
      await expect(resolveModulePackage(module("1.2.0"), options())).rejects.toThrow(/"first_run" must be a path inside the package/);
    });
  });
});
