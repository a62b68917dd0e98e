// Where each machine answering WebRTC calls is held, shared by the replicas of svc-cloud through
// the store: a replica holding a machine's Answer stream lists the machine's names with its own id;
// a replica taking a call for a name it does not hold reads which replica does and passes the call
// there (replicated-signaling.ts). Each replica says it is alive every REPLICA_BEAT_MS; a name
// counts only while its replica has said so within REPLICA_FRESH_MS, so the names a replica killed
// outright held stop counting by themselves (its machines, reconnecting to another replica, list
// them again), and any replica deletes what the dead left behind.
import { randomUUID } from "node:crypto";
import type { Kysely } from "kysely";
import { every, type Clock } from "../../../core/index.js";
import type { Tables } from "../storage/tables.js";
import type { AnsweringMachine } from "./signaling-relay.js";

export const REPLICA_BEAT_MS = 10_000;
export const REPLICA_FRESH_MS = 3 * REPLICA_BEAT_MS;
/** How long a replica has not been heard of before what it held is deleted. */
const REPLICA_GONE_MS = 6 * REPLICA_BEAT_MS;

/** A machine answering at some replica. */
export interface HeldMachine extends AnsweringMachine {
  readonly replica: string;
}

export interface AnswererRegistry {
  /** This replica's id. */
  readonly replica: string;
  /** This replica holds `machine`'s Answer stream now; answers the live replica that held it before, if another did. */
  attach(machine: AnsweringMachine): Promise<string | undefined>;
  /** This replica holds the part's Answer stream no more (another replica's listing is left alone). */
  detach(partId: string): Promise<void>;
  /** The machine answering `host`, at whichever live replica holds it. */
  find(host: string): Promise<HeldMachine | undefined>;
  /** Says this replica is gone and deletes what it held. */
  close(): Promise<void>;
}

export interface AnswererRegistryOptions {
  db: Kysely<Tables>;
  clock: Clock;
  log: (line: string) => void;
}

export async function createAnswererRegistry(options: AnswererRegistryOptions): Promise<AnswererRegistry> {
  const { db, clock, log } = options;
  const replica = randomUUID();

  const beat = async () => {
    const now = clock.now();
    await db.insertInto("replicas").values({ id: replica, seen_at: now }).onConflict((c) => c.column("id").doUpdateSet({ seen_at: now })).execute();
    const gone = await db.selectFrom("replicas").select("id").where("seen_at", "<", now - REPLICA_GONE_MS).execute();
    for (const { id } of gone) {
      await db.deleteFrom("signaling_answerers").where("replica", "=", id).execute();
      await db.deleteFrom("replicas").where("id", "=", id).execute();
    }
  };

  const live = (now: number) => db.selectFrom("replicas").select("id").where("seen_at", ">", now - REPLICA_FRESH_MS);

  await beat();
  const stopBeating = every(clock, REPLICA_BEAT_MS, () => {
    beat().catch((thrown: unknown) => log(`svc-cloud: saying this replica is alive failed: ${(thrown as Error).message}`));
  });

  return {
    replica,
    async attach(machine) {
      const now = clock.now();
      const before = await db.selectFrom("signaling_answerers").select("replica").where("part_id", "=", machine.partId).where("replica", "<>", replica).where("replica", "in", live(now)).executeTakeFirst();
      for (const host of machine.hosts) {
        const row = { part_id: machine.partId, machine_id: machine.machineId, organization_id: machine.organizationId, replica, attached_at: now };
        await db.insertInto("signaling_answerers").values({ host, ...row }).onConflict((c) => c.column("host").doUpdateSet(row)).execute();
      }
      return before?.replica;
    },
    async detach(partId) {
      await db.deleteFrom("signaling_answerers").where("part_id", "=", partId).where("replica", "=", replica).execute();
    },
    async find(host) {
      const row = await db.selectFrom("signaling_answerers").selectAll().where("host", "=", host).where("replica", "in", live(clock.now())).executeTakeFirst();
      if (row === undefined) return undefined;
      const hosts = await db.selectFrom("signaling_answerers").select("host").where("part_id", "=", row.part_id).where("replica", "=", row.replica).execute();
      return { partId: row.part_id, machineId: row.machine_id, organizationId: row.organization_id, hosts: new Set(hosts.map((h) => h.host)), replica: row.replica };
    },
    async close() {
      stopBeating();
      await db.deleteFrom("signaling_answerers").where("replica", "=", replica).execute();
      await db.deleteFrom("replicas").where("id", "=", replica).execute();
    },
  };
}
