// The bounds of a call: its deadline, the client walking away from it, and the message limit
// (network.max_message_bytes) in both directions.
import { create, toBinary, type MessageInitShape } from "@bufbuild/protobuf";
import { expect } from "vitest";
import { MotorService } from "../../../proto/gen/component/motor/v1/motor_pb.js";
import { SensorService } from "../../../proto/gen/component/sensor/v1/sensor_pb.js";
import { eventually } from "../../helpers/eventually.js";
import { expectSettled, expectStatus, expectValue, type WireCase } from "../wire-case.js";
import type { WireClientKind } from "../wire-client.js";
import { MAX_MESSAGE_BYTES, READINGS } from "../wire-machine.js";

const getReadings = SensorService.method.getReadings;
// A hundred turns at 60 rpm: still turning when the case is over, unless something stops it.
const longGoFor = { method: MotorService.method.goFor, request: { name: "wheel", rpm: 60, revolutions: 100 } };

/** A GetReadings request of exactly `bytes` bytes, padded in `extra`. */
function readingsRequestOf(bytes: number): MessageInitShape<typeof getReadings.input> {
  const sized = (pad: number) => ({ name: "temp", extra: { pad: "x".repeat(pad) } });
  const size = (pad: number) => toBinary(getReadings.input, create(getReadings.input, sized(pad))).length;
  let pad = bytes - 32;
  while (size(pad) < bytes) pad++;
  expect(size(pad)).toBe(bytes);
  return sized(pad);
}

// A client with a clock of its own ends the call itself at the deadline and words it its own way;
// the hand-made ones have none, and report the server's DEADLINE_EXCEEDED.
const hasOwnClock = (kind: WireClientKind) => kind.cannot.raw !== undefined;

const limitMessage = (what: string) =>
  `${what} is larger than the ${MAX_MESSAGE_BYTES}-byte message limit (network.max_message_bytes changes it)`;

export const boundCases: WireCase[] = [
  {
    name: "a deadline: DEADLINE_EXCEEDED, then the operation is gone and the motor stopped",
    machine: "open",
    needs: ["deadline"],
    async run({ kind, open, machine }) {
      const outcome = await open().unary({ ...longGoFor, timeoutMs: 300 });
      expect(outcome.code).toBe(4);
      if (!hasOwnClock(kind)) {
        const header = kind.protocol === "connect" ? "connect-timeout-ms: 300" : "grpc-timeout: 300m";
        // The deadline's answer does not name the operation, unlike every other error of a call that ran.
        expectStatus(kind, outcome, 4, `the call passed its deadline (${header})`, { opid: false });
      }
      await expectSettled(machine);
    },
  },
  {
    name: "cancellation mid-call: the operation ends and the motor stops",
    machine: "open",
    needs: ["abort"],
    async run({ open, machine }) {
      const running = eventually(
        async () => ((await machine.observer.operations()).includes("/viam.component.motor.v1.MotorService/GoFor") ? true : undefined),
        "the GoFor among the operations",
      );
      const outcome = await open().unary({ ...longGoFor, abortWhen: running });
      expect(outcome.code).toBe(1);
      await expectSettled(machine);
    },
  },
  {
    name: "a request message at the limit is served",
    machine: "open",
    async run({ kind, open }) {
      const outcome = await open().unary({ method: getReadings, request: readingsRequestOf(MAX_MESSAGE_BYTES) });
      expectValue(kind, outcome, { readings: READINGS });
    },
  },
  {
    name: "a request message past the limit is RESOURCE_EXHAUSTED, naming size, limit and setting",
    machine: "open",
    needs: ["early-answer", "error-status"],
    async run({ kind, open }) {
      const outcome = await open().unary({ method: getReadings, request: readingsRequestOf(MAX_MESSAGE_BYTES + 1) });
      // Refused at the first sign: a body declared too large by its content-length (whole body,
      // prefix included), else the message's length prefix, else the body read past the limit.
      const declared = kind.declaresLength;
      const what =
        kind.protocol === "connect"
          ? declared
            ? `request body of ${MAX_MESSAGE_BYTES + 1} bytes`
            : `request body of at least ${MAX_MESSAGE_BYTES + 1} bytes`
          : declared
            ? `request body of ${MAX_MESSAGE_BYTES + 6} bytes`
            : `request message of ${MAX_MESSAGE_BYTES + 1} bytes`;
      expectStatus(kind, outcome, 8, limitMessage(what), { opid: false });
    },
  },
  {
    name: "a response message past the limit is RESOURCE_EXHAUSTED (in connect's words)",
    machine: "open",
    needs: ["error-status"],
    async run({ kind, open }) {
      const outcome = await open().unary({ method: getReadings, request: { name: "big" } });
      expectStatus(kind, outcome, 8, `message size ${MAX_MESSAGE_BYTES + 18} is larger than configured writeMaxBytes ${MAX_MESSAGE_BYTES}`, {
        opid: true,
      });
    },
  },
];
