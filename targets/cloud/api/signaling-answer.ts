// `proto.rpc.webrtc.v1.SignalingService.Answer`: a machine's open line for calls made to it
// through svc-cloud. The machine opens it with its part key, listing in `rpc-host` the names it
// answers for (signaling-access.ts checks they are its own); from then on the relay
// (fleet/signaling-relay.ts) sends it each caller's offer, candidates, done or error, and what the
// machine answers goes back to that caller. A newer stream of the same part takes this one's
// place and this one ends.
//
// The stream opens with a heartbeat, so the machine knows at once that its names are registered,
// and repeats one every ANSWER_HEARTBEAT_MS: a connection that died unseen then fails its write,
// which ends the stream, and on each heartbeat the part's key is checked again, so a revoked key
// (a deleted machine's) stops answering. However the stream ends, its names answer no more and
// its calls in flight end UNAVAILABLE for their callers.
import type { ServiceImpl } from "@connectrpc/connect";
import { ConnectError } from "@connectrpc/connect";
import type { MessageInitShape } from "@bufbuild/protobuf";
import { Code, every, SvcError, type Clock } from "../../../core/index.js";
import { SignalingService, type AnswerRequestSchema, type AnswerResponse } from "../../../proto/gen/proto/rpc/webrtc/v1/signaling_pb.js";
import { resolvePrincipal } from "../auth/resolve-principal.js";
import { createMessageQueue, type MessageQueue } from "../fleet/message-queue.js";
import type { Answerer } from "../fleet/signaling-relay.js";
import { callerOf, peerAddressKey } from "../server/caller.js";
import type { CloudContext } from "../server/cloud-context.js";
import { answeredHosts, answeringPart } from "./signaling-access.js";
import { answerRequestOf, fromAnswerResponse, heartbeatRequest } from "./signaling-wire.js";

/** How often a machine's Answer stream hears a heartbeat. */
export const ANSWER_HEARTBEAT_MS = 15_000;
/** The Answer stream's request path: its body is quiet between calls, so the port's stall limit does not apply to it. */
export const ANSWER_PATH = `/${SignalingService.typeName}/${SignalingService.method.answer.name}`;
/** How long an Answer stream may carry nothing either way before the port lets it go: two heartbeats missed. */
export const ANSWER_QUIET_MS = 2 * ANSWER_HEARTBEAT_MS;

type Outbox = MessageQueue<MessageInitShape<typeof AnswerRequestSchema>>;

export function signalingAnswerPart(cloud: CloudContext, heartbeatMs = ANSWER_HEARTBEAT_MS): Pick<ServiceImpl<typeof SignalingService>, "answer"> {
  return {
    async *answer(responses, context) {
      const principal = callerOf(context);
      const hosts = answeredHosts(context);
      const part = await answeringPart(cloud, principal, hosts);
      const address = context.values.get(peerAddressKey);
      const log = (line: string) => cloud.addressLog(address, `svc-cloud: part ${part.partId}'s Answer stream from ${address || "an unknown address"}: ${line}`);
      const outbox: Outbox = createMessageQueue();
      const answerer = await cloud.signaling.attach({ ...part, hosts, address, send: (message) => outbox.push(answerRequestOf(message, cloud.iceServers)), end: (error) => outbox.end(error) });
      const beats = startHeartbeats(cloud.clock, heartbeatMs, outbox);
      try {
        if (answerer.replaced !== undefined) log(`took the place of the one from ${answerer.replaced || "an unknown address"} (do two machines run with this part's key?)`);
        void readAnswers(responses, answerer, outbox, log);
        yield heartbeatRequest;
        for (;;) {
          const next = await outbox.take(context.signal);
          if (next.kind === "ended") {
            if (next.error !== undefined) throw next.error;
            return;
          }
          if (next.message === heartbeatRequest) {
            beats.taken();
            await resolvePrincipal(cloud.store, principal.subject);
          }
          yield next.message;
        }
      } finally {
        beats.stop();
        answerer.detach();
        outbox.end();
      }
    },
  };
}

/** Puts a heartbeat in the outbox every `ms`, one waiting at a time: a machine slow to read gets no pile of them. */
function startHeartbeats(clock: Clock, ms: number, outbox: Outbox): { taken(): void; stop(): void } {
  let waiting = false;
  const stop = every(clock, ms, () => {
    if (waiting) return;
    waiting = true;
    outbox.push(heartbeatRequest);
  });
  return { taken: () => (waiting = false), stop };
}

/** Hands the relay what the machine sends, until it stops: then its stream ends too. */
async function readAnswers(responses: AsyncIterable<AnswerResponse>, answerer: Answerer, outbox: Outbox, log: (line: string) => void): Promise<void> {
  try {
    for await (const response of responses) {
      const message = fromAnswerResponse(response);
      if ("dropped" in message) log(`dropped ${message.dropped}`);
      else answerer.fromMachine(message);
    }
    // The machine closed its side: it answers no more.
    outbox.end();
  } catch (thrown) {
    const error = ConnectError.from(thrown);
    outbox.end(new SvcError(error.code as number as Code, error.rawMessage));
  }
}
