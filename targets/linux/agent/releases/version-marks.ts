// What the agent remembers about one product's versions, in
// /var/lib/svc-agent/versions-<product>.json (written atomically): the versions marked bad (with
// why and when), and which version each artifact URL turned out to be. Changes are
// read-modify-write, one at a time.
import { readFile } from "node:fs/promises";
import { createSerialQueue } from "../../../../core/index.js";
import { writeFileAtomic } from "../../system/atomic-file.js";

export interface BadMark {
  reason: string;
  /** When it was marked, ISO 8601. */
  at: string;
}

interface StoreState {
  bad: Record<string, BadMark>;
  /** Artifact URL (a URL version spec) -> the version it identified itself as. */
  sources: Record<string, string>;
}

export interface VersionMarks {
  markBad(version: string, reason: string): Promise<void>;
  badVersions(): Promise<ReadonlySet<string>>;
  badMarks(): Promise<Readonly<Record<string, BadMark>>>;
  sourceVersion(url: string): Promise<string | undefined>;
  recordSource(url: string, version: string): Promise<void>;
}

/** `now` stamps bad marks (wall time). */
export function createVersionMarks(stateFile: string, now: () => number): VersionMarks {
  const changes = createSerialQueue();

  async function readState(): Promise<StoreState> {
    try {
      const parsed = JSON.parse(await readFile(stateFile, "utf8")) as Partial<StoreState>;
      return { bad: { ...parsed.bad }, sources: { ...parsed.sources } };
    } catch {
      // Missing (nothing marked yet) or unreadable: a bad version may then be tried once more.
      return { bad: {}, sources: {} };
    }
  }

  function updateState(change: (state: StoreState) => void): Promise<void> {
    return changes.run(async () => {
      const state = await readState();
      change(state);
      await writeFileAtomic(stateFile, `${JSON.stringify(state, null, 2)}\n`);
    });
  }

  return {
    markBad: (version, reason) =>
      updateState((state) => {
        state.bad[version] = { reason, at: new Date(now()).toISOString() };
      }),
    async badVersions() {
      return new Set(Object.keys((await readState()).bad));
    },
    async badMarks() {
      return (await readState()).bad;
    },
    async sourceVersion(url) {
      const version = (await readState()).sources[url];
      return typeof version === "string" ? version : undefined;
    },
    recordSource: (url, version) =>
      updateState((state) => {
        state.sources[url] = version;
      }),
  };
}
