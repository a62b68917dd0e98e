// Bodies no real client sends, from the clients that can send them: broken frames, lying lengths,
// a compressed flag nothing was compressed with, garbage, nothing at all, a body that never comes.
// Each gets a clear status (or, where HTTP itself is broken, a reset), never a hang or a crash,
// and the server goes on answering others. Frames wrap gRPC and gRPC-web bodies and Connect
// stream bodies, so the Connect client sends the framed cases to the board's StreamTicks.
import { create, toBinary } from "@bufbuild/protobuf";
import { expect } from "vitest";
import { BoardService } from "../../../proto/gen/component/board/v1/board_pb.js";
import { SensorService } from "../../../proto/gen/component/sensor/v1/sensor_pb.js";
import { frame } from "../wire-codec.js";
import { expectStatus, expectStillServing, type WireCase, type WireCaseContext } from "../wire-case.js";
import type { AnyMethod, RawRequest } from "../wire-client.js";
import { MAX_MESSAGE_BYTES, READINGS } from "../wire-machine.js";

const getReadings = SensorService.method.getReadings;
const streamTicks = BoardService.method.streamTicks;
const readingsBytes = toBinary(getReadings.input, create(getReadings.input, { name: "temp" }));
const ticksBytes = toBinary(streamTicks.input, create(streamTicks.input, { name: "pins" }));

/** The method a framed body goes to in this protocol, and the message it carries. */
function framed(context: WireCaseContext): { method: AnyMethod; bytes: Uint8Array; stream: boolean } {
  return context.kind.protocol === "connect"
    ? { method: streamTicks, bytes: ticksBytes, stream: true }
    : { method: getReadings, bytes: readingsBytes, stream: false };
}

/** Sends `request` with a new client, expects `code` and `message`, and that the server still serves. */
async function expectRefused(context: WireCaseContext, request: RawRequest, code: number, message: string, stream: boolean) {
  const outcome = await context.open().raw(request);
  expectStatus(context.kind, outcome, code, message, { stream });
  await expectStillServing(context.machine);
  // And a well-formed call from the same kind of client is served as ever.
  const after = await context.open().unary({ method: getReadings, request: { name: "temp" } });
  expect(after.value).toEqual({ readings: READINGS });
}

const needs = ["raw"] as const;

export const hostileCases: WireCase[] = [
  {
    name: "hostile: a truncated frame is INVALID_ARGUMENT",
    machine: "open",
    needs,
    async run(context) {
      const { method, bytes, stream } = framed(context);
      const body = frame(bytes).subarray(0, 5 + bytes.length - 3);
      await expectRefused(context, { method, body }, 3, "protocol error: incomplete envelope", stream);
    },
  },
  {
    name: "hostile: a length prefix larger than the body is INVALID_ARGUMENT",
    machine: "open",
    needs,
    async run(context) {
      const { method, bytes, stream } = framed(context);
      const body = frame(bytes, { declaredLength: bytes.length + 100 });
      await expectRefused(context, { method, body }, 3, "protocol error: incomplete envelope", stream);
    },
  },
  {
    name: "hostile: a length prefix over the limit is RESOURCE_EXHAUSTED at the prefix",
    machine: "open",
    needs,
    async run(context) {
      const { method, bytes, stream } = framed(context);
      const body = frame(bytes, { declaredLength: MAX_MESSAGE_BYTES + 1 });
      const message = `request message of ${MAX_MESSAGE_BYTES + 1} bytes is larger than the ${MAX_MESSAGE_BYTES}-byte message limit (network.max_message_bytes changes it)`;
      await expectRefused(context, { method, body }, 8, message, stream);
    },
  },
  {
    name: "hostile: the compressed flag without grpc-encoding is INTERNAL",
    machine: "open",
    needs,
    async run(context) {
      const { method, bytes, stream } = framed(context);
      const body = frame(bytes, { flags: 1 });
      await expectRefused(context, { method, body }, 13, "received compressed envelope, but do not know how to decompress", stream);
    },
  },
  {
    name: "hostile: garbage bytes for a unary call",
    machine: "open",
    needs,
    async run(context) {
      const body = new TextEncoder().encode("\xff\xfe garbage, not a frame at all");
      // Framed protocols read the first five bytes as a prefix declaring a huge message; Connect
      // unary takes the body as the message, and fails to parse it, as INTERNAL.
      const [code, message] =
        context.kind.protocol === "connect"
          ? [13, "parse binary: illegal tag: varint overflows uint32"]
          : [8, `request message of 3217276448 bytes is larger than the ${MAX_MESSAGE_BYTES}-byte message limit (network.max_message_bytes changes it)`];
      await expectRefused(context, { method: getReadings, body }, code, message, false);
    },
  },
  {
    name: "hostile: a cut message for Connect unary, a cut frame for the others",
    machine: "open",
    needs,
    async run(context) {
      const body = readingsBytes.subarray(0, readingsBytes.length - 2);
      // Connect unary: a body that does not parse is INTERNAL (HTTP 500), where a framed
      // protocol's incomplete message is INVALID_ARGUMENT.
      const [code, message] =
        context.kind.protocol === "connect" ? [13, "parse binary: premature EOF"] : [3, "protocol error: incomplete envelope"];
      await expectRefused(context, { method: getReadings, body }, code, message, false);
    },
  },
  {
    name: "hostile: an empty body for a unary call",
    machine: "open",
    needs,
    async run(context) {
      // No frame at all is UNIMPLEMENTED in connect's words; an empty Connect body is an empty
      // message, which names no sensor.
      const [code, message] =
        context.kind.protocol === "connect"
          ? [3, "name: the request names no rdk:component:sensor"]
          : [12, "protocol error: missing input message for unary method"];
      await expectRefused(context, { method: getReadings, body: new Uint8Array() }, code, message, false);
    },
  },
  {
    name: "hostile: a body shorter than its content-length, with a deadline",
    machine: "open",
    needs,
    async run(context) {
      const deadline: Record<string, string> =
        context.kind.protocol === "connect" ? { "connect-timeout-ms": "300" } : { "grpc-timeout": "300m" };
      const request = { method: getReadings, body: frame(readingsBytes), headers: { "content-length": "100", ...deadline } };
      if (context.kind.http === "2") {
        // HTTP/2 checks the length itself: the stream is reset (PROTOCOL_ERROR), no gRPC status.
        const outcome = await context.open().raw(request);
        expect(outcome.code).toBe(14);
        expect(outcome.message).toMatch(/PROTOCOL_ERROR/);
        await expectStillServing(context.machine);
        return;
      }
      const header = context.kind.protocol === "connect" ? "connect-timeout-ms: 300" : "grpc-timeout: 300m";
      await expectRefused(context, request, 4, `the call passed its deadline (${header})`, false);
    },
  },
  {
    name: "hostile: a client that leaves in the middle of its body",
    machine: "open",
    needs,
    async run(context) {
      const leaving = new Promise((resolve) => setTimeout(resolve, 200));
      const outcome = await context
        .open()
        .raw({ method: getReadings, body: frame(readingsBytes), headers: { "content-length": "100" }, abortWhen: leaving });
      // HTTP/2 resets the stream at once (see above); over HTTP/1.1 the client leaves first.
      expect(outcome.code).toBe(context.kind.http === "2" ? 14 : 1);
      await expectStillServing(context.machine);
    },
  },
];
