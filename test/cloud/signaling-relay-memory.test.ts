// What the signaling relay remembers stays bounded whatever callers do: the uuids of calls in
// flight plus at most 1,024 that ended within the last minute, the oldest forgotten first. A late
// update for a call it still remembers is taken and dropped; one for a call it has forgotten, or
// from another caller, is NOT_FOUND. The relay alone, on a clock the test moves.
import { describe, expect, it } from "vitest";
import { createManualClock } from "../../core/manual-clock.js";
import type { ToMachine } from "../../targets/cloud/fleet/signaling-messages.js";
import { createSignalingRelay, RELAY_LIMITS } from "../../targets/cloud/fleet/signaling-relay.js";

function relayWithMachine() {
  const clock = createManualClock(0);
  const relay = createSignalingRelay({ clock });
  const sent: ToMachine[] = [];
  const machine = relay.attach({ partId: "p1", machineId: "m1", organizationId: "o1", hosts: ["rover.example"], address: "", send: (m) => sent.push(m), end: () => {} });
  /** One call from `caller`, answered and finished by the machine. */
  const finishedCall = (caller: string): string => {
    const call = relay.call({ host: "rover.example", caller, sdp: "offer", disableTrickle: false });
    machine.fromMachine({ kind: "answer", uuid: call.uuid, sdp: "answer" });
    machine.fromMachine({ kind: "done", uuid: call.uuid });
    return call.uuid;
  };
  return { clock, relay, machine, sent, finishedCall };
}

describe("the relay's memory of calls", () => {
  it("keeps at most 1,024 ended calls, forgetting the oldest first", () => {
    const { relay, finishedCall } = relayWithMachine();
    const uuids = Array.from({ length: RELAY_LIMITS.endedMax + 100 }, () => finishedCall("key:a"));
    expect(relay.counts()).toEqual({ answerers: 1, calls: 0, ended: RELAY_LIMITS.endedMax });
    const late = { kind: "candidate" as const, candidate: { candidate: "candidate:late" } };
    expect(() => relay.update(uuids.at(-1)!, "key:a", "rover.example", late)).not.toThrow();
    expect(() => relay.update(uuids[0]!, "key:a", "rover.example", late)).toThrow(`no call ${uuids[0]} to update`);
    expect(() => relay.update(uuids.at(-1)!, "key:b", "rover.example", late)).toThrow(/no call/);
  });

  it("forgets an ended call after a minute", () => {
    const { clock, relay, finishedCall } = relayWithMachine();
    const uuid = finishedCall("key:a");
    clock.advance(RELAY_LIMITS.endedKeepMs - 1);
    expect(() => relay.update(uuid, "key:a", "rover.example", { kind: "done" })).not.toThrow();
    clock.advance(1);
    expect(() => relay.update(uuid, "key:a", "rover.example", { kind: "done" })).toThrow(/no call/);
    finishedCall("key:a");
    expect(relay.counts().ended).toBe(1);
  });

  it("ends an exchange that never finishes after 60 s, telling the machine", () => {
    const { clock, relay, machine, sent } = relayWithMachine();
    const call = relay.call({ host: "rover.example", caller: "key:a", sdp: "offer", disableTrickle: false });
    machine.fromMachine({ kind: "answer", uuid: call.uuid, sdp: "answer" });
    clock.advance(RELAY_LIMITS.exchangeMaxMs);
    expect(relay.counts().calls).toBe(0);
    expect(call.toCaller.ended).toBe(true);
    expect(sent.at(-1)).toMatchObject({ kind: "error", uuid: call.uuid, status: { code: 4 } });
  });
});
