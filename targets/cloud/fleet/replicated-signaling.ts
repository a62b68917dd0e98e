// Signaling across the replicas of svc-cloud on one PostgreSQL. Each replica's relay holds the
// machines whose Answer streams reached it (signaling-relay.ts), and lists them in the store
// (answerer-registry.ts). A caller's Call reaching a replica that does not hold the machine is
// passed over the replicas' channel to the one that does: that replica offers it to the machine
// as its own caller's, sends back what the machine says and how the call ends, and takes the
// caller's hang-up; a CallUpdate reaching any replica goes to the one holding the machine, which
// answers whether the call is that caller's (calls-elsewhere.ts keeps the caller's side,
// calls-served.ts the machine's). A
// machine whose newer Answer stream reached another replica has its older one ended here.
import { randomUUID } from "node:crypto";
import type { Clock } from "../../../core/index.js";
import type { AnswererRegistry } from "./answerer-registry.js";
import { createCallsElsewhere, type SignalEnvelope } from "./calls-elsewhere.js";
import { createCallsServed } from "./calls-served.js";
import type { ReplicaChannel } from "./replica-channel.js";
import type { Signaling } from "./signaling.js";
import { noMachineAnswers, RELAY_LIMITS, type SignalingRelay } from "./signaling-relay.js";

export const TOPIC = "signaling";

export interface ReplicatedSignalingOptions {
  relay: SignalingRelay;
  registry: AnswererRegistry;
  channel: ReplicaChannel;
  clock: Clock;
  log: (line: string) => void;
}

export function createReplicatedSignaling(options: ReplicatedSignalingOptions): Signaling {
  const { relay, registry, channel, clock, log } = options;
  const me = registry.replica;
  /** Which Answer stream of each part this replica last listed, and its listing under way. */
  const listings = new Map<string, { token: object; done: Promise<unknown> }>();

  const send = (envelope: SignalEnvelope) => {
    channel.send(TOPIC, JSON.stringify(envelope)).catch((thrown: unknown) => log(`svc-cloud: passing a signaling message to replica ${envelope.to} failed: ${(thrown as Error).message}`));
  };
  const elsewhere = createCallsElsewhere({ me, clock, send, limits: RELAY_LIMITS });
  const served = createCallsServed({ me, relay, send });

  const heard = (body: string) => {
    let e: SignalEnvelope;
    try {
      e = JSON.parse(body) as SignalEnvelope;
    } catch {
      return;
    }
    if (e.to !== me) return;
    if (e.kind === "offer") return served.offer(e);
    if (e.kind === "update") return served.update(e);
    if (e.kind === "hangUp") return served.hangUp(e.uuid);
    if (e.kind === "replaced") return relay.release(e.partId);
    elsewhere.heard(e);
  };
  const stopHearing = channel.on(TOPIC, heard);

  /** The replica holding the machine answering `host`, when it is not this one. */
  const heldElsewhere = async (host: string) => {
    const held = await registry.find(host);
    return held !== undefined && held.replica !== me ? held : undefined;
  };

  return {
    async attach(answerer) {
      const local = relay.attach(answerer);
      const token = {};
      const done = registry.attach({ partId: answerer.partId, machineId: answerer.machineId, organizationId: answerer.organizationId, hosts: new Set(answerer.hosts) }).then(
        (before) => before !== undefined && send({ to: before, from: me, kind: "replaced", partId: answerer.partId }),
        (thrown: unknown) => log(`svc-cloud: listing part ${answerer.partId}'s Answer stream for the other replicas failed: ${(thrown as Error).message}`),
      );
      listings.set(answerer.partId, { token, done });
      return {
        replaced: local.replaced,
        fromMachine: (message) => local.fromMachine(message),
        detach() {
          local.detach();
          if (listings.get(answerer.partId)?.token !== token) return;
          listings.delete(answerer.partId);
          void done
            .then(() => registry.detach(answerer.partId))
            .catch((thrown: unknown) => log(`svc-cloud: unlisting part ${answerer.partId}'s Answer stream failed: ${(thrown as Error).message}`));
        },
      };
    },
    async answererFor(host) {
      return relay.answererFor(host) ?? (await heldElsewhere(host));
    },
    async call(offer) {
      if (relay.answererFor(offer.host) !== undefined) return relay.call(offer);
      const held = await heldElsewhere(offer.host);
      if (held === undefined) throw noMachineAnswers(offer.host);
      return elsewhere.call(held.replica, { ...offer, uuid: randomUUID() });
    },
    async update(uuid, caller, host, update) {
      try {
        return relay.update(uuid, caller, host, update);
      } catch (thrown) {
        const held = await heldElsewhere(host);
        if (held === undefined) throw thrown;
        return elsewhere.update(held.replica, { uuid, caller, host, update });
      }
    },
    counts: () => {
      const here = relay.counts();
      return { ...here, calls: here.calls + elsewhere.count() };
    },
    async close() {
      stopHearing();
      elsewhere.close();
      await registry.close();
    },
  };
}
