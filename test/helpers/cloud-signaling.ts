// Both ends of WebRTC signaling through svc-cloud, without WebRTC: the SDP and candidates are
// whatever text a test passes, which is all the relay sees.
// - A stand-in for a machine, as svc-server answers: it signs in with its part key and holds
//   SignalingService.Answer open listing its names in `rpc-host`. What svc-cloud sends collects in
//   `requests`; the test answers with `send`; `close()` ends the machine's side of the stream,
//   `drop()` cuts it off.
// - A caller's Call, read in the background: its responses, and how it ended.
import { createClient, type Client } from "@connectrpc/connect";
import type { MessageInitShape } from "@bufbuild/protobuf";
import { RobotService } from "../../proto/gen/app/v1/robot_pb.js";
import { SignalingService, type AnswerRequest, type AnswerResponseSchema, type CallResponse } from "../../proto/gen/proto/rpc/webrtc/v1/signaling_pb.js";
import { bearer, cloudTransport, signedInClient, signIn } from "./cloud-client.js";
import { eventually } from "./eventually.js";

type AnswerResponseInit = MessageInitShape<typeof AnswerResponseSchema>;

export interface PartNames {
  fqdn: string;
  localFqdn: string;
}

export interface SignalingMachine {
  readonly requests: AnswerRequest[];
  /** "completed", or the error the stream ended with (`[code] message`). */
  readonly ended: Promise<string>;
  send(response: AnswerResponseInit): void;
  /** Waits for a request matching `match` (counting from the first), and returns it. */
  next(what: string, match: (request: AnswerRequest) => boolean): Promise<AnswerRequest>;
  close(): void;
  drop(): void;
}

/** The part's names as svc-cloud gives them in its config. */
export async function partNames(url: string, partId: string, partKey: { id: string; key: string }): Promise<PartNames> {
  const robot = await signedInClient(RobotService, url, partKey);
  const cloud = (await robot.config({ id: partId })).config!.cloud!;
  return { fqdn: cloud.fqdn, localFqdn: cloud.localFqdn };
}

/** A signaling client signed in with an access token. */
export function signalingClient(url: string, token: string): Client<typeof SignalingService> {
  return createClient(SignalingService, cloudTransport(url, "grpc", [bearer(token)]));
}

export interface PlacedCall {
  readonly responses: CallResponse[];
  /** "completed", or the error the call ended with (`[code] message`). */
  readonly ended: Promise<string>;
  /** The call's uuid, once the machine's answer has come. */
  uuid(): Promise<string>;
  hangUp(): void;
}

/** Calls `host` with `sdp`, reading the answer and candidates as they come. */
export function placeCall(client: Client<typeof SignalingService>, host: string, sdp: string, options: { disableTrickle?: boolean } = {}): PlacedCall {
  const abort = new AbortController();
  const responses: CallResponse[] = [];
  const stream = client.call({ sdp, disableTrickle: options.disableTrickle ?? false }, { headers: { "rpc-host": host }, signal: abort.signal });
  const ended = (async () => {
    try {
      for await (const response of stream) responses.push(response);
      return "completed";
    } catch (thrown) {
      return String((thrown as Error).message);
    }
  })();
  return {
    responses,
    ended,
    uuid: () => eventually(() => responses[0]?.uuid, "the machine's answer to reach the caller"),
    hangUp: () => abort.abort(),
  };
}

/** A machine holding Answer open for `hosts` (comma-joined into rpc-host). */
export async function answeringMachine(url: string, partKey: { id: string; key: string }, hosts: readonly string[]): Promise<SignalingMachine> {
  const signaling = signalingClient(url, await signIn(url, partKey.id, partKey.key));
  const outgoing = createOutgoing();
  const abort = new AbortController();
  const requests: AnswerRequest[] = [];
  const stream = signaling.answer(outgoing.messages(), { headers: { "rpc-host": hosts.join(",") }, signal: abort.signal });
  const ended = (async () => {
    try {
      for await (const request of stream) requests.push(request);
      return "completed";
    } catch (thrown) {
      return String((thrown as Error).message);
    }
  })();
  return {
    requests,
    ended,
    send: (response) => outgoing.push(response),
    next: (what, match) => eventually(() => requests.find(match), what),
    close: () => outgoing.close(),
    drop: () => abort.abort(),
  };
}

/** A request stream the test writes to as it goes. */
function createOutgoing() {
  const waiting: AnswerResponseInit[] = [];
  let closed = false;
  let wake: (() => void) | undefined;
  return {
    push(message: AnswerResponseInit) {
      waiting.push(message);
      wake?.();
    },
    close() {
      closed = true;
      wake?.();
    },
    async *messages(): AsyncGenerator<AnswerResponseInit> {
      for (;;) {
        if (waiting.length > 0) {
          yield waiting.shift()!;
          continue;
        }
        if (closed) return;
        await new Promise<void>((resolve) => (wake = resolve));
        wake = undefined;
      }
    },
  };
}
