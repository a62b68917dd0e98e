// The WebRTC signaling relay: which machines answer calls here, for which of their names, and the
// calls being set up between callers and them. A machine holds an Answer stream open (attach);
// a caller's offer goes down it with a fresh uuid, and what the machine says for that uuid comes
// back to the caller (relayed-call.ts has one call's phases). It knows the machines whose Answer
// streams this process holds; with several replicas of svc-cloud, replicated-signaling.ts finds a
// machine held elsewhere and passes calls between this relay and the replica holding it.
//
// What a hostile caller can cost is bounded here: a principal has at most `callsPerCaller` calls
// being set up at once and a machine at most `callsPerMachine`, each call relays a bounded number
// of candidates and lasts a bounded time, and the uuids remembered are those of the calls in
// flight plus at most `endedMax` ended within the last `endedKeepMs`. Who may call which machine
// is the API's to check (api/signaling-access.ts); the relay only keeps a call's updates to the
// principal that made it.
import { randomUUID } from "node:crypto";
import { Code, SvcError, type Clock } from "../../../core/index.js";
import { boundText, LOGGED_VALUE_MAX_CHARS } from "../../../node/rpc/bounded-text.js";
import { createEndedCalls } from "./ended-calls.js";
import { startRelayedCall, type CallLimits, type RelayedCall } from "./relayed-call.js";
import type { FromCaller, FromMachine, ToCaller, ToMachine } from "./signaling-messages.js";
import type { MessageQueue } from "./message-queue.js";

export interface RelayLimits extends CallLimits {
  readonly callsPerCaller: number;
  readonly callsPerMachine: number;
  readonly endedKeepMs: number;
  readonly endedMax: number;
}

export const RELAY_LIMITS: RelayLimits = {
  offerDeadlineMs: 10_000,
  exchangeMaxMs: 60_000,
  candidatesPerSide: 64,
  callsPerCaller: 8,
  callsPerMachine: 16,
  endedKeepMs: 60_000,
  endedMax: 1024,
};

/** A machine answering here: its part (and the machine the part belongs to), and the names callers reach it by. */
export interface AnsweringMachine {
  readonly partId: string;
  readonly machineId: string;
  readonly organizationId: string;
  readonly hosts: ReadonlySet<string>;
}

export interface AnswererOptions {
  readonly partId: string;
  readonly machineId: string;
  readonly organizationId: string;
  /** The names it answers for, as callers write them in `rpc-host` (lower case). */
  readonly hosts: readonly string[];
  /** Where its stream comes from, for the log. */
  readonly address: string;
  /** Writes to its Answer stream. */
  readonly send: (message: ToMachine) => void;
  /** Ends its Answer stream: a newer one of the same part replaced it. */
  readonly end: (error: SvcError) => void;
}

export interface Answerer {
  /** The address of the Answer stream this one replaced, if it replaced one. */
  readonly replaced: string | undefined;
  /** What the machine said on its stream. A message for a call not offered to it is dropped. */
  fromMachine(message: FromMachine): void;
  /** Its stream ended: its names answer no more, and its calls in flight end UNAVAILABLE. */
  detach(): void;
}

export interface CallOffer {
  readonly host: string;
  /** The principal calling (its subject). */
  readonly caller: string;
  readonly sdp: string;
  readonly disableTrickle: boolean;
  /** The call's uuid when another replica chose it; a new one otherwise. */
  readonly uuid?: string;
}

export interface CallHandle {
  readonly uuid: string;
  /** What to write to the caller, until it ends (OK after the machine's done, else with the error). */
  readonly toCaller: MessageQueue<ToCaller>;
  /** The caller's stream ended; nothing if the call had ended already. */
  hangUp(): void;
}

export interface SignalingRelay {
  /** Registers a machine's Answer stream; an older stream of the same part is ended. */
  attach(options: AnswererOptions): Answerer;
  /** The machine answering for `host` here, if any. */
  answererFor(host: string): AnsweringMachine | undefined;
  /** Offers a call to the machine answering `offer.host`: NOT_FOUND when none does, RESOURCE_EXHAUSTED past a limit. */
  call(offer: CallOffer): CallHandle;
  /** A caller's update for its call `uuid` on `host`: NOT_FOUND unless it is that caller's call there (in flight or ended lately). */
  update(uuid: string, caller: string, host: string, update: FromCaller): void;
  /** Ends the Answer stream of `partId` held here, if one is: a newer one is held elsewhere. */
  release(partId: string): void;
  /** What it holds, for diagnostics and tests. */
  counts(): { answerers: number; calls: number; ended: number };
}

export interface SignalingRelayOptions {
  readonly clock: Clock;
  readonly limits?: Partial<RelayLimits>;
  /** Makes a call's uuid; crypto.randomUUID by default. */
  readonly newUuid?: () => string;
}

/** The one answer to a caller who may not reach `host`, whatever the reason: unknown, offline or not theirs. */
export function noMachineAnswers(host: string): SvcError {
  return new SvcError(Code.NotFound, `no machine answers for host ${boundText(host, LOGGED_VALUE_MAX_CHARS)}`);
}

interface Registered extends AnsweringMachine {
  readonly options: AnswererOptions;
  readonly calls: Set<RelayedCall>;
  attached: boolean;
}

export function createSignalingRelay(options: SignalingRelayOptions): SignalingRelay {
  const limits = { ...RELAY_LIMITS, ...options.limits };
  const newUuid = options.newUuid ?? randomUUID;
  const { clock } = options;
  const byPart = new Map<string, Registered>();
  const byHost = new Map<string, Registered>();
  const calls = new Map<string, RelayedCall>();
  const callsOf = new Map<string, number>();
  const ended = createEndedCalls(clock, { keepMs: limits.endedKeepMs, max: limits.endedMax });

  function retire(machine: Registered): void {
    if (!machine.attached) return;
    machine.attached = false;
    if (byPart.get(machine.partId) === machine) byPart.delete(machine.partId);
    for (const host of machine.hosts) if (byHost.get(host) === machine) byHost.delete(host);
    for (const call of [...machine.calls]) call.machineGone();
  }

  function replaced(machine: Registered): void {
    retire(machine);
    machine.options.end(new SvcError(Code.Aborted, "a newer Answer stream of this part took its place"));
  }

  function register(answerer: AnswererOptions): Registered {
    const { partId, machineId, organizationId } = answerer;
    const machine: Registered = { partId, machineId, organizationId, hosts: new Set(answerer.hosts), options: answerer, calls: new Set(), attached: true };
    byPart.set(machine.partId, machine);
    for (const host of machine.hosts) byHost.set(host, machine);
    return machine;
  }

  function admitCall(machine: Registered, caller: string): void {
    const held = callsOf.get(caller) ?? 0;
    if (held >= limits.callsPerCaller) throw new SvcError(Code.ResourceExhausted, `this caller has ${held} calls being set up, the most one caller may; wait for one to end`);
    if (machine.calls.size >= limits.callsPerMachine) throw new SvcError(Code.ResourceExhausted, `the machine has ${machine.calls.size} calls being set up, the most it takes at once; try again shortly`);
  }

  function callEnded(machine: Registered, call: RelayedCall): void {
    calls.delete(call.uuid);
    machine.calls.delete(call);
    const left = (callsOf.get(call.caller) ?? 1) - 1;
    if (left <= 0) callsOf.delete(call.caller);
    else callsOf.set(call.caller, left);
    ended.add(call.uuid, { caller: call.caller, hosts: call.hosts });
  }

  return {
    attach(answerer) {
      const previous = byPart.get(answerer.partId);
      if (previous !== undefined) replaced(previous);
      const machine = register(answerer);
      return {
        replaced: previous?.options.address,
        fromMachine(message) {
          const call = calls.get(message.uuid);
          if (machine.attached && call !== undefined && machine.calls.has(call)) call.fromMachine(message);
        },
        detach: () => retire(machine),
      };
    },
    answererFor: (host) => byHost.get(host),
    call(offer) {
      const machine = byHost.get(offer.host);
      if (machine === undefined) throw noMachineAnswers(offer.host);
      admitCall(machine, offer.caller);
      const uuid = offer.uuid ?? newUuid();
      const call = startRelayedCall({
        uuid,
        caller: offer.caller,
        hosts: machine.hosts,
        sdp: offer.sdp,
        disableTrickle: offer.disableTrickle,
        toMachine: machine.options.send,
        clock,
        limits,
        onEnded: () => callEnded(machine, call),
      });
      calls.set(uuid, call);
      machine.calls.add(call);
      callsOf.set(offer.caller, (callsOf.get(offer.caller) ?? 0) + 1);
      return { uuid, toCaller: call.toCaller, hangUp: () => call.hangUp() };
    },
    update(uuid, caller, host, update) {
      const call = calls.get(uuid);
      if (call !== undefined && call.caller === caller && call.hosts.has(host)) return call.fromCaller(update);
      const late = ended.find(uuid);
      // A call that ended lately: its caller's last words are taken, and go nowhere.
      if (late !== undefined && late.caller === caller && late.hosts.has(host)) return;
      throw new SvcError(Code.NotFound, `no call ${boundText(uuid, 64)} to update`);
    },
    release(partId) {
      const machine = byPart.get(partId);
      if (machine !== undefined) replaced(machine);
    },
    counts: () => ({ answerers: byPart.size, calls: calls.size, ended: ended.size }),
  };
}
