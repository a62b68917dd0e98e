// The last configuration a cloud-managed machine applied, kept on disk so the next boot serves it
// at once, before (or without) the cloud. Written only after the machine took it, atomically and
// readable by its owner alone (configurations hold secrets). A cache that cannot be read (cut
// short, edited by hand, another part's) is set aside under a new name, never deleted and never a
// reason not to boot: the machine then starts empty and waits for the cloud.
import { timestampMs } from "@bufbuild/protobuf/wkt";
import { readFileSync, renameSync } from "node:fs";
import { join } from "node:path";
import { writeFileAtomic } from "../../system/atomic-file.js";
import type { MachineConfigResponse } from "../../../../proto/gen/svc/cloud/v1/cloud_pb.js";
import { cloudPartOf, type CloudPart } from "./cloud-part.js";

const FORMAT = 1;

export interface CachedConfig {
  /** svc-cloud's revision of it. */
  revision: string;
  /** When that revision was made (ms since the epoch). */
  time: number;
  /** The configuration as JSON text, as svc-cloud answered it. */
  config: string;
  part: CloudPart;
}

/** svc-cloud's answer to MachineConfig, as it is kept. */
export function cachedConfigOf(answer: MachineConfigResponse): CachedConfig {
  return { revision: answer.revision, time: answer.time ? timestampMs(answer.time) : 0, config: answer.config, part: cloudPartOf(answer) };
}

export type CacheRead<T = CachedConfig> =
  | { kind: "none" }
  | { kind: "found"; cached: T }
  | { kind: "set-aside"; problem: string; movedTo: string | undefined };

export interface ConfigCache {
  readonly path: string;
  read(): CacheRead;
  write(cached: CachedConfig): Promise<void>;
}

export function createConfigCache(dir: string, partId: string, now: () => number): ConfigCache {
  const path = join(dir, `cloud-config-${fileSafe(partId)}.json`);
  return {
    path,
    read: () => readCacheFile(path, (text) => cacheProblem(text, partId), now),
    async write(cached) {
      const text = `${JSON.stringify({ format: FORMAT, ...cached })}\n`;
      await writeFileAtomic(path, text, 0o600);
    },
  };
}

/** A cache file read and understood by `understand` (what it holds, or what is wrong with it); one that cannot be is set aside. */
export function readCacheFile<T>(path: string, understand: (text: string) => { cached: T } | string, now: () => number): CacheRead<T> {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (thrown) {
    if ((thrown as NodeJS.ErrnoException).code === "ENOENT") return { kind: "none" };
    return setAside(path, `cannot be read: ${(thrown as Error).message}`, now());
  }
  const understood = understand(text);
  if (typeof understood === "string") return setAside(path, understood, now());
  return { kind: "found", cached: understood.cached };
}

/** A part id as a file name: what is not a plain character becomes "_". */
export const fileSafe = (id: string) => id.replace(/[^A-Za-z0-9._-]/g, "_").slice(0, 128);

function cacheProblem(text: string, partId: string): string | { cached: CachedConfig } {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (thrown) {
    return `is not JSON (${(thrown as Error).message})`;
  }
  if (!isRecord(data) || data.format !== FORMAT) return `is not a configuration cache of this version (format ${FORMAT})`;
  const { revision, time, config, part } = data;
  if (typeof revision !== "string" || typeof time !== "number" || typeof config !== "string" || !isRecord(part)) {
    return "lacks its revision, time, configuration or part";
  }
  const ids = ["partId", "machineId", "locationId", "primaryOrgId", "fqdn", "localFqdn"] as const;
  if (!ids.every((key) => typeof part[key] === "string")) return "lacks the part's ids";
  if (part.partId !== partId) return `is part ${JSON.stringify(part.partId)}'s, not this machine's (${JSON.stringify(partId)})`;
  return { cached: { revision, time, config, part: part as unknown as CloudPart } };
}

/** Moves an unreadable cache file out of the way, keeping it under a new name. */
function setAside(path: string, problem: string, now: number): { kind: "set-aside"; problem: string; movedTo: string | undefined } {
  const movedTo = `${path}.unreadable-${now}`;
  try {
    renameSync(path, movedTo);
    return { kind: "set-aside", problem, movedTo };
  } catch {
    return { kind: "set-aside", problem, movedTo: undefined };
  }
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);
