// svc-cloud replicas on one real PostgreSQL, for the test files that run several of them.
// `postgresReplicas()` is called at a test file's top level: it starts a PostgreSQL
// (test/helpers/postgres-server.ts) before the file and stops it after. `replicas` makes a new
// database, runs the real `svc-cloud init` on it once and starts real svc-cloud processes serving
// it, each with a data folder of its own. What is made inside a test is stopped (replicas first)
// and removed (folders next) after that test; what is made outside one, in a beforeAll, after the
// file; the server is stopped last. The hooks are registered when it is called, and vitest runs
// after-hooks in reverse order of registration (`sequence.hooks: "stack"`), so an afterEach or
// afterAll the file registers after calling it runs while the replicas still serve.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, beforeEach, expect } from "vitest";
import { runCloud, startCloud, type CloudProcess, type InitResult } from "./cloud-process.js";
import { startPostgresServer, type PostgresServer } from "./postgres-server.js";

/** Replicas serving one database, initialised once. */
export interface Replicas {
  /** The database's URL. */
  readonly database: string;
  /** What `svc-cloud init` answered: the organization and its API key. */
  readonly init: InitResult;
  /** The replicas, in the order asked for. */
  readonly clouds: CloudProcess[];
}

export interface PostgresReplicas {
  /** The file's PostgreSQL; throws when it is not running (outside the file's tests and hooks). */
  readonly server: PostgresServer;
  /** A new temporary folder, removed afterwards. */
  folder(): string;
  /** A new database, initialised once by `svc-cloud init` with `initArgs`, served by `count` replicas started together. */
  replicas(count: number, options?: { initArgs?: string[] }): Promise<Replicas>;
  /** One more replica on `database`, with a data folder of its own or the one given; stopped afterwards. */
  serve(database: string, init: InitResult, dataDir?: string): Promise<CloudProcess>;
  /** Stops `cloud`, started elsewhere, afterwards with the replicas; answers it. */
  adopt(cloud: CloudProcess): CloudProcess;
}

/** What one scope (a test, or the file) made, stopped and removed when it ends. */
interface Made {
  readonly clouds: CloudProcess[];
  readonly folders: string[];
}

export function postgresReplicas(): PostgresReplicas {
  let server: PostgresServer | undefined;
  const file: Made = { clouds: [], folders: [] };
  let test: Made | undefined;
  const scope = () => test ?? file;

  beforeAll(async () => {
    server = await startPostgresServer();
  }, 120_000);
  beforeEach(() => {
    test = { clouds: [], folders: [] };
  });
  afterEach(async () => {
    const ended = test;
    test = undefined;
    if (ended !== undefined) await clear(ended);
  });
  afterAll(async () => {
    try {
      await clear(file);
    } finally {
      await server?.stop();
      server = undefined;
    }
  });

  const running = () => {
    if (server === undefined) throw new Error("the test PostgreSQL is not running (postgresReplicas() belongs at a test file's top level)");
    return server;
  };
  const folder = () => {
    const dir = mkdtempSync(join(tmpdir(), "svc-cloud-replica-"));
    scope().folders.push(dir);
    return dir;
  };
  const adopt = (cloud: CloudProcess, made = scope()) => {
    made.clouds.push(cloud);
    return cloud;
  };
  const serve = async (database: string, init: InitResult, dataDir = folder()) => {
    const made = scope();
    return adopt(await startCloud({ database, reuse: { dataDir, init } }), made);
  };

  return {
    get server() {
      return running();
    },
    folder,
    async replicas(count, { initArgs = [] } = {}) {
      const database = await running().createDatabase();
      const made = runCloud(["init", ...initArgs], folder(), database);
      expect(made.status, made.stderr).toBe(0);
      const init = JSON.parse(made.stdout) as InitResult;
      // Every start is waited for, so that none still starting is left unstopped when one fails.
      const started = await Promise.allSettled(Array.from({ length: count }, () => serve(database, init)));
      const clouds = started.map((s) => {
        if (s.status === "rejected") throw s.reason;
        return s.value;
      });
      return { database, init, clouds };
    },
    serve,
    adopt: (cloud) => adopt(cloud),
  };
}

/** Stops `made`'s replicas, one after another, then removes its folders. */
async function clear(made: Made): Promise<void> {
  try {
    for (const cloud of made.clouds.splice(0)) await cloud.stop();
  } finally {
    for (const dir of made.folders.splice(0)) rmSync(dir, { recursive: true, force: true });
  }
}
