// Several real svc-cloud processes (dist/linux/svc-cloud.mjs) serving one store, as a fleet runs
// them behind a TCP balancer: on PostgreSQL any number, each with a data folder of its own; on
// SQLite one (its file is in its folder, and a folder has one server). The first replica serves
// the folder the store was seeded through; the others get new folders under `root`, which the
// caller removes. Each is stopped by its PID. Their CPU time and memory are read from /proc.
import { mkdtempSync } from "node:fs";
import { join } from "node:path";
import { startCloud, type CloudProcess, type InitResult } from "../../test/helpers/cloud-process.js";
import { cpuSeconds } from "./grpc-load.js";
import { residentMB } from "./resident-memory.js";

export interface ReplicaSetOptions {
  count: number;
  /** The PostgreSQL every replica serves (`--database`); the seeded folder's SQLite file when absent. */
  database?: string;
  /** The folder the store was seeded through, and what `init` answered then. */
  seeded: { dataDir: string; init: InitResult };
  /** Where the other replicas' folders are made. */
  root: string;
}

export interface ReplicaSet {
  /** Each replica's address, "http://localhost:PORT". */
  readonly urls: string[];
  /** CPU seconds all the replicas have used so far. */
  cpuSeconds(): number;
  /** The largest resident memory among the replicas, MB. */
  largestResidentMB(): number;
  stop(): Promise<void>;
}

export async function startReplicaSet(options: ReplicaSetOptions): Promise<ReplicaSet> {
  const { count, database, seeded, root } = options;
  if (database === undefined && count !== 1) throw new Error("replicas share a PostgreSQL database; on SQLite there is one svc-cloud");
  const started: CloudProcess[] = [];
  const stop = async () => void (await Promise.all(started.map((replica) => replica.stop())));
  try {
    for (let i = 0; i < count; i++) {
      const dataDir = i === 0 ? seeded.dataDir : mkdtempSync(join(root, "replica-"));
      started.push(await startCloud({ database, reuse: { dataDir, init: seeded.init } }));
    }
  } catch (thrown) {
    await stop();
    throw thrown;
  }
  const pids = started.map((replica) => replica.child.pid!);
  return {
    urls: started.map((replica) => replica.url),
    cpuSeconds: () => pids.reduce((sum, pid) => sum + cpuSeconds(pid), 0),
    largestResidentMB: () => Math.max(...pids.map(residentMB)),
    stop,
  };
}
