// Installed versions on disk: install, activate, previous, rollback, bad marks that survive a
// restart, cleanup that spares current and previous, and a kill -9 at any instant of an
// install + activate leaving `current` on a complete, runnable version.
import { execFileSync, spawn } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, readlinkSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { build } from "esbuild";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { agentPaths } from "../../../targets/linux/agent/agent-paths.js";
import { createVersionStore, currentPlatform, readReleaseManifest } from "../../../targets/linux/agent/releases/index.js";

let work: string;
let artifact: string;
let plainExecutable: string;

// An svc-server stand-in that answers with the name of the version folder it was run from, plus
// filler so unpacking takes a while (more instants to be killed at).
const script = `#!/bin/sh
here=$(cd "$(dirname "$0")" && pwd -P)
[ -f "$here/lib/payload-199" ] || { echo "incomplete" >&2; exit 3; }
echo "svc-server $(basename "$here")"
`;

const runVersion = (exe: string) => execFileSync(exe, ["-version"], { encoding: "utf8" }).trim();

beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), "svc-versions-"));
  const tree = join(work, "tree");
  mkdirSync(join(tree, "lib"), { recursive: true });
  writeFileSync(join(tree, "svc-server"), script);
  chmodSync(join(tree, "svc-server"), 0o755);
  for (let i = 0; i < 200; i++) writeFileSync(join(tree, "lib", `payload-${i}`), `${i}\n`.repeat(500));
  artifact = join(work, "artifact.tar.gz");
  execFileSync("tar", ["-czf", artifact, "-C", tree, "svc-server", "lib"]);
  plainExecutable = join(work, "plain");
  writeFileSync(plainExecutable, "#!/bin/sh\necho svc-server 3.1.4\n");
});
afterAll(() => rmSync(work, { recursive: true, force: true }));

function freshStore() {
  const root = mkdtempSync(join(work, "root-"));
  const paths = agentPaths(root);
  return { root, paths, store: createVersionStore(paths, "svc-server", { now: () => Date.UTC(2030, 0, 2) }) };
}

describe("the version store", () => {
  it("installs without activating, then activates with the old version kept as previous", async () => {
    const { paths, store } = freshStore();
    const dir = await store.install("1.0.0", artifact);
    expect(dir).toBe(paths.versionDir("svc-server", "1.0.0"));
    expect(await store.current()).toBeUndefined();
    await store.activate("1.0.0");
    expect(await store.current()).toBe("1.0.0");
    expect(await store.previous()).toBeUndefined();
    expect(runVersion(paths.currentExecutable("svc-server"))).toBe("svc-server 1.0.0");

    await store.install("1.1.0", artifact);
    expect(await store.current()).toBe("1.0.0");
    await store.activate("1.1.0");
    expect(await store.current()).toBe("1.1.0");
    expect(await store.previous()).toBe("1.0.0");
    expect(readlinkSync(paths.currentLink("svc-server"))).toBe("versions/1.1.0");
    expect(runVersion(paths.currentExecutable("svc-server"))).toBe("svc-server 1.1.0");
    expect(await store.installed()).toEqual(["1.0.0", "1.1.0"]);
  });

  it("takes a single executable file as a version, and refuses what is not a version or not installed", async () => {
    const { paths, store } = freshStore();
    await store.install("3.1.4", plainExecutable);
    await store.activate("3.1.4");
    expect(runVersion(paths.currentExecutable("svc-server"))).toBe("svc-server 3.1.4");
    await expect(store.install("../escape", artifact)).rejects.toThrow('"../escape" is not a semantic version');
    await expect(store.activate("9.9.9")).rejects.toThrow("svc-server 9.9.9 is not installed");
    const empty = join(work, "empty.tar.gz");
    execFileSync("tar", ["-czf", empty, "-C", work, "plain"]);
    await expect(store.install("4.0.0", empty)).rejects.toThrow("it has no executable svc-server at its top");
    expect(await store.installed()).toEqual(["3.1.4"]);
  });

  it("rolls back to previous, and does not roll back twice into the version it left", async () => {
    const { paths, store } = freshStore();
    for (const v of ["1.0.0", "2.0.0"]) {
      await store.install(v, artifact);
      await store.activate(v);
    }
    expect(await store.rollback()).toBe("1.0.0");
    expect(await store.current()).toBe("1.0.0");
    expect(runVersion(paths.currentExecutable("svc-server"))).toBe("svc-server 1.0.0");
    expect(await store.previous()).toBeUndefined();
    await expect(store.rollback()).rejects.toThrow("no previous version to roll back to");
  });

  it("keeps bad marks on disk, across a new store on the same root", async () => {
    const { paths, store } = freshStore();
    await store.markBad("2.0.0", "did not start within 10 minutes");
    await store.markBad("2.0.1", "crashed 3 times in its first 5 minutes");
    const again = createVersionStore(paths, "svc-server");
    expect([...(await again.badVersions())].sort()).toEqual(["2.0.0", "2.0.1"]);
    expect((await again.badMarks())["2.0.0"]).toEqual({ reason: "did not start within 10 minutes", at: "2030-01-02T00:00:00.000Z" });
    expect(readdirSync(paths.stateDir)).toEqual(["versions-svc-server.json"]);
    expect(await createVersionStore(paths, "agent").badVersions()).toEqual(new Set());
  });

  it("cleans up old versions, never current or previous, and leftovers of interrupted work", async () => {
    const { paths, store } = freshStore();
    for (const v of ["1.0.0", "1.1.0", "1.2.0", "1.3.0", "1.4.0", "1.5.0"]) await store.install(v, artifact);
    await store.activate("1.0.0");
    await store.activate("1.1.0");
    const versions = join(paths.productDir("svc-server"), "versions");
    mkdirSync(join(versions, "1.6.0.tmp-999999999"));
    mkdirSync(join(versions, "1.6.1.tmp-999999999-4"));
    const removed = await store.cleanup(3);
    expect(removed.sort()).toEqual(["1.2.0", "1.6.0.tmp-999999999", "1.6.1.tmp-999999999-4"]);
    expect(await store.installed()).toEqual(["1.0.0", "1.1.0", "1.3.0", "1.4.0", "1.5.0"]);
    expect(readdirSync(versions).sort()).toEqual(["1.0.0", "1.1.0", "1.3.0", "1.4.0", "1.5.0"]);
    expect(runVersion(paths.currentExecutable("svc-server"))).toBe("svc-server 1.1.0");
  });

  it("keeps current, previous and the three newest good versions, dropping bad ones first", async () => {
    const { store } = freshStore();
    for (const v of ["1.0.0", "1.1.0", "1.2.0", "1.3.0", "1.4.0", "1.5.0", "1.6.0"]) await store.install(v, artifact);
    await store.activate("1.0.0");
    await store.activate("1.1.0");
    await store.markBad("1.6.0", "never served");
    await store.markBad("1.3.0", "stopped 3 times");
    expect((await store.cleanup(3)).sort()).toEqual(["1.3.0", "1.6.0"]);
    expect(await store.installed()).toEqual(["1.0.0", "1.1.0", "1.2.0", "1.4.0", "1.5.0"]);
    // A version waiting to be activated stays even when it is not among the newest.
    for (const v of ["1.7.0", "1.8.0"]) await store.install(v, artifact);
    expect(await store.cleanup(3, ["1.2.0"])).toEqual(["1.4.0"]);
    expect(await store.installed()).toEqual(["1.0.0", "1.1.0", "1.2.0", "1.5.0", "1.7.0", "1.8.0"]);
  });

  it("after a rollback, previous is the newest good version other than current, so good versions outlive bad ones", async () => {
    const { paths, store } = freshStore();
    for (const v of ["1.0.0", "1.1.0"]) {
      await store.install(v, artifact);
      await store.activate(v);
    }
    // Two bad releases in a row, each rolled back the way the agent does it: marked bad, then back.
    for (const bad of ["1.2.0", "1.3.0"]) {
      await store.install(bad, artifact);
      await store.activate(bad);
      await store.markBad(bad, "never served");
      expect(await store.rollback()).toBe("1.1.0");
      expect(await store.previous()).toBe("1.0.0");
    }
    expect(runVersion(paths.currentExecutable("svc-server"))).toBe("svc-server 1.1.0");
    await store.install("1.4.0", artifact);
    expect((await store.cleanup(3, ["1.4.0"])).sort()).toEqual(["1.2.0", "1.3.0"]);
    expect(await store.installed()).toEqual(["1.0.0", "1.1.0", "1.4.0"]);
    // The next bad release still has somewhere to go back to, twice over.
    await store.activate("1.4.0");
    await store.markBad("1.4.0", "never served");
    expect(await store.rollback()).toBe("1.1.0");
    expect(await store.previous()).toBe("1.0.0");
  });

  it("runs two activations asked for at once one after the other", async () => {
    const { paths, store } = freshStore();
    for (const v of ["1.0.0", "1.1.0", "1.2.0"]) await store.install(v, artifact);
    await store.activate("1.0.0");
    await Promise.all([store.activate("1.1.0"), store.activate("1.2.0")]);
    expect(await store.current()).toBe("1.2.0");
    expect(await store.previous()).toBe("1.1.0");
    expect(readdirSync(paths.productDir("svc-server")).sort()).toEqual(["current", "previous", "versions"]);
    // And a rollback asked for in the middle of an activation waits for it.
    await Promise.all([store.activate("1.0.0"), store.rollback()]);
    expect(await store.current()).toBe("1.2.0");
    expect(runVersion(paths.currentExecutable("svc-server"))).toBe("svc-server 1.2.0");
  });

  it("installs an artifact that names its version in its svc-release.json, running nothing it holds", async () => {
    const { store } = freshStore();
    const ran = join(work, "ran");
    const packaged = (name: string, manifest: unknown) => {
      const tree = join(work, `tree-${name}`);
      mkdirSync(tree, { recursive: true });
      writeFileSync(join(tree, "svc-server"), `#!/bin/sh\ntouch "${ran}"\necho svc-server 9.9.9\n`);
      chmodSync(join(tree, "svc-server"), 0o755);
      if (manifest !== undefined) writeFileSync(join(tree, "svc-release.json"), JSON.stringify(manifest));
      const file = join(work, `${name}.tar.gz`);
      execFileSync("tar", ["-czf", file, "-C", tree, "."]);
      return file;
    };
    const read = (unpacked: string) => readReleaseManifest(unpacked, "svc-server", currentPlatform(), "the artifact");
    const good = packaged("good", { product: "svc-server", version: "3.1.4", platform: currentPlatform() });
    const got = await store.installIdentified(good, read);
    expect(got.version).toBe("3.1.4");
    expect(await store.installed()).toEqual(["3.1.4"]);

    const refusals: Array<[string, RegExp]> = [
      [plainExecutable, /has no svc-release\.json at its top/],
      [packaged("none", undefined), /has no svc-release\.json at its top/],
      [packaged("agent", { product: "svc-agent", version: "1.0.0", platform: currentPlatform() }), /is not svc-server: its svc-release\.json says product "svc-agent"/],
      [packaged("nover", { product: "svc-server", version: "latest", platform: currentPlatform() }), /no semantic version \(version "latest"\)/],
      [packaged("arch", { product: "svc-server", version: "1.0.0", platform: "linux/riscv64" }), /built for "linux\/riscv64", not for this machine/],
      [packaged("broken", "{"), /is not a JSON object/],
    ];
    for (const [file, why] of refusals) await expect(store.installIdentified(file, read), file).rejects.toThrow(why);
    expect(await store.installed()).toEqual(["3.1.4"]);
    expect(existsSync(ran)).toBe(false);
  });
});

describe("a kill -9 during install and activate", () => {
  let child: string;
  beforeAll(async () => {
    child = join(work, "install-activate.mjs");
    await build({
      entryPoints: [join(import.meta.dirname, "fixtures/install-activate.ts")],
      outfile: child,
      bundle: true,
      platform: "node",
      format: "esm",
      target: "node20",
      logLevel: "error",
    });
  });

  it("always leaves current on a complete version that runs", async () => {
    const { root, paths, store } = freshStore();
    await store.install("1.0.0", artifact);
    await store.activate("1.0.0");
    const seen = new Set<string>();
    let midInstall = 0;
    // Runs the child; once `killAfter(lines so far)` gives a delay, kills it that long after. Returns its timed lines.
    const runChild = (killAfter: (lines: string[]) => number | undefined) =>
      new Promise<string[]>((resolve) => {
        const proc = spawn(process.execPath, [child, root, artifact], { stdio: ["ignore", "pipe", "inherit"] });
        const lines: string[] = [];
        const stamps: number[] = [];
        let armed = false;
        proc.stdout.on("data", (chunk) => {
          for (const line of String(chunk).split("\n").filter(Boolean)) {
            lines.push(line);
            stamps.push(performance.now());
          }
          const delay = armed ? undefined : killAfter(lines);
          if (delay !== undefined) {
            armed = true;
            setTimeout(() => proc.kill("SIGKILL"), delay);
          }
        });
        proc.on("exit", () => resolve(lines.map((l, i) => `${stamps[i]} ${l}`)));
      });
    // How long one install + activate takes here and now, so the kills can be spread across it.
    const calibration = await runChild((lines) => (lines.length >= 5 ? 0 : undefined));
    const times = calibration.filter((l) => l.includes("installing")).map((l) => Number(l.split(" ")[0]));
    const cycleMs = (times[times.length - 1]! - times[0]!) / (times.length - 1);
    // Kills spread over one and a half cycles, swept again until some landed half-way through
    // unpacking and several versions became current. On a busy machine a cycle takes longer than
    // the calibration said, so each further sweep spreads the kills over twice the time.
    const rounds = 24;
    for (let round = 0; round < rounds * 4 && (round < rounds || midInstall === 0 || seen.size <= 2); round++) {
      const spread = cycleMs * 1.5 * 2 ** Math.floor(round / rounds);
      const delayMs = (spread * (round % rounds)) / rounds;
      await runChild((lines) => (lines.some((l) => l.startsWith("installing")) ? delayMs : undefined));
      const current = await store.current();
      expect(current, `round ${round}`).toBeDefined();
      expect(existsSync(join(paths.versionDir("svc-server", current!), "lib", "payload-199"))).toBe(true);
      expect(runVersion(paths.currentExecutable("svc-server")), `round ${round}`).toBe(`svc-server ${current}`);
      seen.add(current!);
      if (readdirSync(join(paths.productDir("svc-server"), "versions")).some((n) => n.includes(".tmp-"))) midInstall++;
    }
    // Some kills landed half-way through unpacking, others between the steps.
    expect(midInstall).toBeGreaterThan(0);
    // The kills landed at different steps: new versions became current along the way.
    expect(seen.size).toBeGreaterThan(2);
    await store.cleanup(3);
    expect(readdirSync(join(paths.productDir("svc-server"), "versions")).every((n) => !n.includes(".tmp-"))).toBe(true);
    expect(readFileSync(join(paths.currentExecutable("svc-server")), "utf8")).toBe(script);
  });
});
