// One call through the signaling relay, from the caller's offer to its end. Its phases:
// - offered: the machine has the offer and its answer is awaited, for OFFER_DEADLINE_MS at most
//   (the deadline the machine is given with the offer);
// - answered: the answer went to the caller, and candidates pass both ways (each side's first
//   `candidatesPerSide`; more are dropped) until the machine says done, either side reports an
//   error, the caller goes away, the machine goes offline, or the whole exchange has taken
//   `exchangeMaxMs`, which bounds how long a call that never finishes holds its place;
// - ended: the caller's stream is told how (done: it ends OK), and the relay forgets the call.
// The machine is told when a call ends for a reason it cannot see (no answer in time, the caller
// gone), but never after the caller has said done: by then it has heard the last of the caller,
// and an error would make it drop a connection that may well have opened.
import { Code, SvcError, type Clock } from "../../../core/index.js";
import { createMessageQueue, type MessageQueue } from "./message-queue.js";
import type { FromCaller, FromMachine, RelayStatus, ToCaller, ToMachine } from "./signaling-messages.js";

export interface CallLimits {
  /** How long the machine has to answer an offer. */
  readonly offerDeadlineMs: number;
  /** How long a whole exchange may take, from the offer to the machine's done. */
  readonly exchangeMaxMs: number;
  /** Candidates relayed from each side of one call; later ones are dropped. */
  readonly candidatesPerSide: number;
}

export interface RelayedCallOptions {
  readonly uuid: string;
  /** The principal making the call (its subject). */
  readonly caller: string;
  /** The names of the machine called, for the caller's updates to name. */
  readonly hosts: ReadonlySet<string>;
  readonly sdp: string;
  readonly disableTrickle: boolean;
  /** Writes to the machine's Answer stream. */
  readonly toMachine: (message: ToMachine) => void;
  readonly clock: Clock;
  readonly limits: CallLimits;
  /** Told once, when the call ends, however it ends. */
  readonly onEnded: () => void;
}

export interface RelayedCall {
  readonly uuid: string;
  readonly caller: string;
  readonly hosts: ReadonlySet<string>;
  /** What the caller's Call stream writes: ended OK after the machine's done, with the error otherwise. */
  readonly toCaller: MessageQueue<ToCaller>;
  fromMachine(message: FromMachine): void;
  fromCaller(update: FromCaller): void;
  /** The caller went away (its Call ended). */
  hangUp(): void;
  /** The machine's Answer stream ended. */
  machineGone(): void;
}

interface CallState {
  phase: "offered" | "answered" | "ended";
  /** The caller said done or failed: the machine hears nothing more of this call. */
  callerDone: boolean;
  candidatesFromCaller: number;
  candidatesFromMachine: number;
  /** The pending deadline: the answer's, then the whole exchange's. */
  timer: unknown;
}

const seconds = (ms: number) => `${Math.round(ms / 1000)} s`;

/** Sends the offer to the machine and returns the call, offered. */
export function startRelayedCall(options: RelayedCallOptions): RelayedCall {
  const { uuid, clock, limits, toMachine } = options;
  const toCaller = createMessageQueue<ToCaller>();
  const startedAt = clock.now();
  const state: CallState = { phase: "offered", callerDone: false, candidatesFromCaller: 0, candidatesFromMachine: 0, timer: undefined };

  function end(error?: SvcError): void {
    if (state.phase === "ended") return;
    state.phase = "ended";
    clock.clearTimeout(state.timer);
    toCaller.end(error);
    options.onEnded();
  }

  /** Tells the machine why the call ended, unless the caller already said its last. */
  function tellMachine(status: RelayStatus): void {
    if (state.callerDone) return;
    state.callerDone = true;
    toMachine({ kind: "error", uuid, status });
  }

  function unanswered(): void {
    tellMachine({ code: Code.DeadlineExceeded, message: `the offer was not answered within ${seconds(limits.offerDeadlineMs)}` });
    end(new SvcError(Code.DeadlineExceeded, `the machine did not answer within ${seconds(limits.offerDeadlineMs)}`));
  }

  function answered(sdp: string): void {
    state.phase = "answered";
    clock.clearTimeout(state.timer);
    state.timer = clock.setTimeout(overdue, Math.max(0, startedAt + limits.exchangeMaxMs - clock.now()));
    toCaller.push({ kind: "answer", sdp });
  }

  function overdue(): void {
    const why = `the call's exchange did not finish within ${seconds(limits.exchangeMaxMs)}`;
    tellMachine({ code: Code.DeadlineExceeded, message: why });
    end(new SvcError(Code.DeadlineExceeded, why));
  }

  toMachine({ kind: "offer", uuid, sdp: options.sdp, disableTrickle: options.disableTrickle, deadline: startedAt + limits.offerDeadlineMs });
  state.timer = clock.setTimeout(unanswered, limits.offerDeadlineMs);

  return {
    uuid,
    caller: options.caller,
    hosts: options.hosts,
    toCaller,
    fromMachine(message) {
      if (state.phase === "ended") return;
      if (message.kind === "answer") {
        // A second answer is not the machine's to give.
        if (state.phase === "offered") answered(message.sdp);
      } else if (message.kind === "candidate") {
        if (state.phase === "answered" && state.candidatesFromMachine++ < limits.candidatesPerSide) toCaller.push({ kind: "candidate", candidate: message.candidate });
      } else if (message.kind === "done") {
        end(state.phase === "answered" ? undefined : new SvcError(Code.Unknown, "the machine ended the call without answering it"));
      } else {
        end(new SvcError(message.status.code, message.status.message));
      }
    },
    fromCaller(update) {
      if (state.phase === "ended" || state.callerDone) return;
      if (update.kind === "candidate") {
        if (state.candidatesFromCaller++ < limits.candidatesPerSide) toMachine({ kind: "candidate", uuid, candidate: update.candidate });
      } else if (update.kind === "done") {
        state.callerDone = true;
        toMachine({ kind: "done", uuid });
      } else {
        tellMachine(update.status);
        end(new SvcError(update.status.code, update.status.message));
      }
    },
    hangUp() {
      if (state.phase === "ended") return;
      tellMachine({ code: Code.Canceled, message: "the caller went away" });
      end();
    },
    machineGone: () => end(new SvcError(Code.Unavailable, "the machine went offline")),
  };
}
