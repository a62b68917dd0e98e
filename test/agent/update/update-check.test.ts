// Update checks against a release server on loopback, with the agent's clock injected: an
// artifact that does not match its index entry is downloaded again only after a backoff that
// doubles up to a day, is reported once per attempt (not at every check), is remembered across a
// restart, and a changed index entry is tried at once.
import { createHash } from "node:crypto";
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createCollectingSink, createLogEngine, createManualClock } from "../../../core/index.js";
import { agentPaths } from "../../../targets/linux/agent/agent-paths.js";
import { createDownloadFailures, createVersionStore, type DownloadFailures } from "../../../targets/linux/agent/releases/index.js";
import { checkForUpdates } from "../../../targets/linux/agent/update/update-check.js";
import { startReleaseServer, type ReleaseServer } from "../../helpers/release-server.js";

const MINUTE = 60_000;
const BACKOFF = { initialMs: 5 * MINUTE, maxMs: 24 * 60 * MINUTE };

let work: string;
let served: string;
let server: ReleaseServer;
let artifactSha: string;

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), "svc-update-check-"));
  served = join(work, "served");
  const tree = join(work, "tree");
  mkdirSync(served);
  mkdirSync(tree);
  writeFileSync(join(tree, "svc-server"), '#!/bin/sh\necho "svc-server 2.0.0"\n', { mode: 0o755 });
  execFileSync("tar", ["-czf", join(served, "svc-server-2.0.0.tar.gz"), "-C", tree, "svc-server"]);
  artifactSha = createHash("sha256").update(readFileSync(join(served, "svc-server-2.0.0.tar.gz"))).digest("hex");
  server = await startReleaseServer(served);
});
afterAll(async () => {
  await server.close();
  rmSync(work, { recursive: true, force: true });
});

/** The index names svc-server 2.0.0 as stable, with this sha256. */
function publish(sha256: string): void {
  const artifact = { url: "svc-server-2.0.0.tar.gz", sha256, size: statSync(join(served, "svc-server-2.0.0.tar.gz")).size };
  writeFileSync(join(served, "index.json"), JSON.stringify({ "svc-server": { channels: { stable: "2.0.0" }, versions: { "2.0.0": { "linux/amd64": artifact } } } }));
}

function device() {
  const paths = agentPaths(mkdtempSync(join(work, "device-")));
  const sink = createCollectingSink();
  const clock = { now: Date.UTC(2030, 0, 1) };
  // A new object on the same files is what an agent restart sees.
  const failures = (): Record<"svc-server" | "agent", DownloadFailures> => ({
    "svc-server": createDownloadFailures(paths, "svc-server", { now: () => clock.now, backoff: BACKOFF }),
    agent: createDownloadFailures(paths, "agent", { now: () => clock.now, backoff: BACKOFF }),
  });
  const servers = createVersionStore(paths, "svc-server");
  const running = failures();
  const check = (downloadFailures = running) =>
    checkForUpdates({
      indexUrl: `${server.url}index.json`,
      // The index has no agent releases: only svc-server is updated here.
      versionControl: { "svc-server": "stable", agent: "stable" },
      platform: "linux/amd64",
      servers,
      agents: createVersionStore(paths, "agent"),
      downloadDir: paths.downloadDir,
      downloadFailures,
      logger: createLogEngine({ clock: createManualClock(0), sink }).logger("svc-agent.update"),
    });
  const downloads = () => server.requests.filter((request) => request.path === "/svc-server-2.0.0.tar.gz").length;
  const reports = () => sink.entries.filter((entry) => entry.level === "warn" && entry.message.includes("sha256")).map((entry) => entry.message);
  return { paths, clock, check, failures, downloads, reports, servers };
}

const at = (ms: number) => new Date(ms).toISOString();

describe("an artifact that does not match its sha256", () => {
  it("is downloaded again only after a backoff, said once per attempt, and remembered across a restart", async () => {
    publish("0".repeat(64));
    const d = device();
    const start = d.clock.now;
    const before = d.downloads();

    expect((await d.check()).server.kind).toBe("error");
    expect(d.downloads()).toBe(before + 1);
    expect(d.reports()).toHaveLength(1);
    expect(d.reports()[0]).toMatch(/sha256 is [0-9a-f]{64}, expected 0{64}; the download was deleted/);
    expect(d.reports()[0]).toContain(`not downloaded again before ${at(start + 5 * MINUTE)} unless the release index changes it`);

    // Checks within the backoff, one of them after an agent restart: no download, nothing more said.
    for (const minutes of [1, 2, 4]) {
      d.clock.now = start + minutes * MINUTE;
      expect((await d.check(minutes === 2 ? d.failures() : undefined)).server.kind).toBe("deferred");
    }
    expect(d.downloads()).toBe(before + 1);
    expect(d.reports()).toHaveLength(1);

    // Each attempt after the backoff doubles it, up to a day.
    const delays: number[] = [];
    let retryAt = start + 5 * MINUTE;
    for (let attempt = 2; attempt <= 11; attempt++) {
      d.clock.now = retryAt;
      expect((await d.check()).server.kind).toBe("error");
      const next = Date.parse(/not downloaded again before (\S+)/.exec(d.reports().at(-1)!)![1]!);
      delays.push((next - retryAt) / MINUTE);
      retryAt = next;
    }
    expect(delays).toEqual([10, 20, 40, 80, 160, 320, 640, 1280, 1440, 1440]);
    expect(d.downloads()).toBe(before + 11);
    expect(d.reports()).toHaveLength(11);
  });

  it("tries a new index entry for the version at once, and forgets the failure once it installs", async () => {
    publish("0".repeat(64));
    const d = device();
    expect((await d.check()).server.kind).toBe("error");
    publish("1".repeat(64));
    const before = d.downloads();
    expect((await d.check()).server.kind).toBe("error");
    expect(d.downloads()).toBe(before + 1);

    publish(artifactSha);
    const fixed = await d.check();
    expect(fixed.server).toMatchObject({ kind: "ready", version: "2.0.0" });
    expect(d.downloads()).toBe(before + 2);
    expect(await d.failures()["svc-server"].holding("2.0.0", "1".repeat(64))).toBeUndefined();
    expect(await d.servers.installed()).toEqual(["2.0.0"]);
  });
});
