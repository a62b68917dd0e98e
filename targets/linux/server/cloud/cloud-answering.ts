// Offers made through svc-cloud: the machine holds SignalingService.Answer open to svc-cloud (with
// its part key, naming its fqdn and local fqdn in rpc-host), and each offer svc-cloud relays is
// answered by the same answerer as the machine's own signaling, the answer and candidates sent
// back on the stream, the caller's candidates taken from it. A connection made this way proves no
// key of the machine's: with API keys, its calls need their own token (or the api_token frame).
// svc-cloud's heartbeat comes every 15 s; a stream silent for twice that is opened again, as is
// one that ends or fails, after a wait that grows with jitter.
import { create, type MessageInitShape } from "@bufbuild/protobuf";
import { ConnectError } from "@connectrpc/connect";
import { createWritableIterable, type WritableIterable } from "@connectrpc/connect/protocol";
import type { Clock, Logger } from "../../../../core/index.js";
import { AnswerResponseSchema, type AnswerRequest, type AnswerResponse } from "../../../../proto/gen/proto/rpc/webrtc/v1/signaling_pb.js";
import { pauseUnless, type CloudConnection } from "../../cloud-link/index.js";
import { retryWait } from "../../logging/log-uploader.js";
import { decodeOffer, encodeDescription, type CallExchange, type WebRtcAnswerer } from "../webrtc/index.js";

/** Twice svc-cloud's heartbeat, and a little. */
export const ANSWER_SILENCE_MS = 35_000;

export interface CloudAnsweringOptions {
  connection: CloudConnection;
  answerer: WebRtcAnswerer;
  /** The machine's names (fqdn, local fqdn); none yet until svc-cloud has said. */
  names(): string[];
  clock: Clock;
  log: Logger;
  silenceMs?: number;
  random?: () => number;
}

type Reply = MessageInitShape<typeof AnswerResponseSchema>;

export interface CloudAnswering {
  close(): Promise<void>;
}

export function answerThroughCloud(options: CloudAnsweringOptions): CloudAnswering {
  const { clock, log } = options;
  const silenceMs = options.silenceMs ?? ANSWER_SILENCE_MS;
  const closed = new AbortController();
  let failures = 0;

  // One Answer stream, to its end.
  async function hold(names: string[]): Promise<void> {
    const stream = new AbortController();
    const stop = () => stream.abort();
    closed.signal.addEventListener("abort", stop);
    const outgoing: WritableIterable<AnswerResponse> = createWritableIterable();
    const send = (response: Reply) => void outgoing.write(create(AnswerResponseSchema, response)).catch(() => {});
    const exchanges = new Map<string, CallExchange>();
    let silence = clock.setTimeout(stop, silenceMs);
    try {
      const incoming = options.connection.signaling.answer(outgoing, { headers: { "rpc-host": names.join(",") }, signal: stream.signal, timeoutMs: 0 });
      for await (const request of incoming) {
        failures = 0;
        clock.clearTimeout(silence);
        silence = clock.setTimeout(stop, silenceMs);
        take(request, exchanges, send);
      }
    } catch (thrown) {
      if (!closed.signal.aborted) log.warn("the WebRTC answer stream to svc-cloud failed", { error: ConnectError.from(thrown).rawMessage, failures: ++failures });
    } finally {
      clock.clearTimeout(silence);
      closed.signal.removeEventListener("abort", stop);
      outgoing.close();
      // Offers still being answered have lost their way back; made connections stay.
      for (const exchange of exchanges.values()) exchange.fail("the answer stream ended");
    }
  }

  function take(request: AnswerRequest, exchanges: Map<string, CallExchange>, send: (response: Reply) => void): void {
    const { uuid, stage } = request;
    if (stage.case === "init") return void answerOffer(uuid, stage.value.sdp, !stage.value.optionalConfig?.disableTrickle, exchanges, send);
    const exchange = exchanges.get(uuid);
    if (stage.case === "update" && stage.value.candidate) exchange?.addCandidate(stage.value.candidate.candidate, stage.value.candidate.sdpMid);
    if (stage.case === "error") exchange?.fail(stage.value.status?.message ?? "the caller failed");
  }

  async function answerOffer(uuid: string, sdp: string, trickle: boolean, exchanges: Map<string, CallExchange>, send: (response: Reply) => void) {
    try {
      const exchange = await options.answerer.answer(decodeOffer(sdp), { grant: undefined, address: `svc-cloud call ${uuid}`, trickle });
      exchanges.set(uuid, exchange);
      for await (const event of exchange.events) {
        if ("answer" in event) send({ uuid, stage: { case: "init", value: { sdp: encodeDescription(event.answer) } } });
        else send({ uuid, stage: { case: "update", value: { candidate: event.candidate } } });
      }
      send({ uuid, stage: { case: "done", value: {} } });
    } catch (thrown) {
      const error = ConnectError.from(thrown);
      send({ uuid, stage: { case: "error", value: { status: { code: error.code, message: error.rawMessage } } } });
    } finally {
      exchanges.delete(uuid);
    }
  }

  const running = (async () => {
    while (!closed.signal.aborted) {
      const names = options.names();
      if (names.length > 0) await hold(names);
      if (closed.signal.aborted) break;
      // Until svc-cloud has named the machine there is nothing to answer for: look again shortly.
      await pauseUnless(clock, names.length === 0 ? 1_000 : retryWait(Math.max(failures, 1), options.random ?? Math.random), closed.signal);
    }
  })();

  return {
    async close() {
      closed.abort();
      await running;
    },
  };
}
