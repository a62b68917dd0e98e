// The pieces between the shim and XS: the clock the host drives (timers in due order, promise
// jobs settled between them, the next deadline told back) and the byte protocol both sides share.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createDrivenClock } from "../../targets/mcu/driven-clock.js";
import {
  COMMAND_CANCEL,
  COMMAND_CONFIG,
  COMMAND_REQUEST,
  COMMAND_TICK,
  decodeCommand,
  decodeReply,
  encodeCommand,
  encodeReply,
  type HostCommand,
  type HostReply,
} from "../../targets/mcu/host-protocol.js";

describe("the driven clock", () => {
  it("fires what falls due in due order, settling each timer's promise jobs before the next", async () => {
    const clock = createDrivenClock({ start: 1_000 });
    const seen: string[] = [];
    const wait = (ms: number) => new Promise<void>((resolve) => clock.setTimeout(resolve, ms));
    void (async () => {
      await wait(10);
      seen.push(`a@${clock.now()}`);
      await wait(10);
      seen.push(`a2@${clock.now()}`);
    })();
    clock.setTimeout(() => seen.push(`b@${clock.now()}`), 15);
    const dropped = clock.setTimeout(() => seen.push("never"), 5);
    clock.clearTimeout(dropped);
    expect(clock.nextDue()).toBe(1_010);
    await clock.advanceTo(1_030);
    expect(seen).toEqual(["a@1010", "b@1015", "a2@1020"]);
    expect(clock.now()).toBe(1_030);
    expect(clock.nextDue()).toBeUndefined();
    await clock.advanceTo(500);
    expect(clock.now()).toBe(1_030);
  });
});

const headers = fc.array(fc.tuple(fc.stringMatching(/^[a-z-]{1,12}$/), fc.string({ maxLength: 20 }).filter((v) => !v.includes("\n"))), { maxLength: 4 });
const command: fc.Arbitrary<HostCommand> = fc.oneof(
  fc.record({ kind: fc.constant(COMMAND_CONFIG), now: fc.double({ noNaN: true }), id: fc.nat(), text: fc.string() }),
  fc.record({
    kind: fc.constant(COMMAND_REQUEST),
    now: fc.double({ noNaN: true }),
    id: fc.nat(),
    method: fc.constantFrom("POST", "OPTIONS"),
    path: fc.string(),
    headers,
    body: fc.uint8Array({ maxLength: 64 }),
    peer: fc.constantFrom("", "127.0.0.1", "::ffff:192.0.2.7"),
    bodyDropped: fc.boolean(),
    entropy: fc.uint8Array({ maxLength: 32 }),
  }),
  fc.record({ kind: fc.constant(COMMAND_TICK), now: fc.double({ noNaN: true }) }),
  fc.record({ kind: fc.constant(COMMAND_CANCEL), now: fc.double({ noNaN: true }), id: fc.nat() }),
) as fc.Arbitrary<HostCommand>;
const reply: fc.Arbitrary<HostReply> = fc.record({
  nextDue: fc.option(fc.double({ noNaN: true }), { nil: undefined }),
  running: fc.nat(),
  finished: fc.array(fc.record({ id: fc.nat(), status: fc.integer({ min: 100, max: 599 }), headers, body: fc.uint8Array({ maxLength: 64 }) }), { maxLength: 3 }),
  logs: fc.string(),
});

describe("the host protocol", () => {
  it("carries every command and reply across unchanged", () => {
    fc.assert(
      fc.property(command, (c) => {
        expect(decodeCommand(encodeCommand(c))).toEqual(c);
      }),
    );
    fc.assert(
      fc.property(reply, (r) => {
        expect(decodeReply(encodeReply(r))).toEqual(r);
      }),
    );
  });

  it("refuses a message cut short or of an unknown kind", () => {
    const bytes = encodeCommand({ kind: COMMAND_CANCEL, now: 1, id: 7 });
    expect(() => decodeCommand(bytes.subarray(0, bytes.length - 1))).toThrow(/ends early/);
    expect(() => decodeCommand(new Uint8Array([9, 0, 0, 0, 0, 0, 0, 0, 0]))).toThrow(/unknown command 9/);
  });

  it("sends a request without a peer, a dropped body or random bytes as unknown, kept and none", () => {
    const bytes = encodeCommand({ kind: COMMAND_REQUEST, now: 1, id: 2, method: "POST", path: "/", headers: [], body: new Uint8Array([7]) });
    expect(decodeCommand(bytes)).toMatchObject({ peer: "", bodyDropped: false, entropy: new Uint8Array(0), body: new Uint8Array([7]) });
  });
});
