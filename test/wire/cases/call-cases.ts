// Plain calls: unary reads and commands, the one server-streaming method svc serves (the board's
// StreamTicks, which no board supports), NOT_FOUND for a missing resource, UNIMPLEMENTED for what
// nobody serves, and the metadata the server answers with.
import { BoardService } from "../../../proto/gen/component/board/v1/board_pb.js";
import { MotorService } from "../../../proto/gen/component/motor/v1/motor_pb.js";
import { SensorService } from "../../../proto/gen/component/sensor/v1/sensor_pb.js";
import { RobotService } from "../../../proto/gen/robot/v1/robot_pb.js";
import { expect } from "vitest";
import { phantomMethod } from "../phantom-method.js";
import { expectOperationId, expectSettled, expectStatus, expectValue, type WireCase } from "../wire-case.js";
import { READINGS, RESOURCE_NAMES } from "../wire-machine.js";

const getReadings = SensorService.method.getReadings;
// A path nobody serves is a 404 in Connect (as connect's router answers it), not UNIMPLEMENTED's 501.
export const unknownPath = { opid: false, connectHttpStatus: 404 } as const;

export const callCases: WireCase[] = [
  {
    name: "GetReadings of a fake sensor",
    machine: "open",
    async run({ kind, open }) {
      const outcome = await open().unary({ method: getReadings, request: { name: "temp" } });
      expectValue(kind, outcome, { readings: READINGS });
    },
  },
  {
    name: "a motor's GoFor, then IsPowered",
    machine: "open",
    async run({ kind, open, machine }) {
      const client = open();
      // A twentieth of a turn at 60 rpm: done at once.
      const going = await client.unary({ method: MotorService.method.goFor, request: { name: "wheel", rpm: 60, revolutions: 0.05 } });
      expectValue(kind, going, {});
      expectValue(kind, await client.unary({ method: MotorService.method.isPowered, request: { name: "wheel" } }), {});
      await expectSettled(machine);
    },
  },
  {
    name: "RobotService GetOperations leaves itself out",
    machine: "open",
    async run({ kind, open }) {
      expectValue(kind, await open().unary({ method: RobotService.method.getOperations, request: {} }), {});
    },
  },
  {
    name: "RobotService ResourceNames",
    machine: "open",
    async run({ kind, open }) {
      const outcome = await open().unary({ method: RobotService.method.resourceNames, request: {} });
      expectStatus(kind, outcome, 0, "", { opid: true });
      const names = (outcome.value as { resources: Array<Record<string, string>> }).resources.map(
        (r) => `${r.namespace}:${r.type}:${r.subtype}/${r.name}`,
      );
      expect(names.sort()).toEqual(RESOURCE_NAMES);
    },
  },
  {
    name: "a server stream: StreamTicks of a board is UNIMPLEMENTED, of a missing board NOT_FOUND",
    machine: "open",
    needs: ["stream", "error-status"],
    async run({ kind, open }) {
      const client = open();
      const ticks = await client.stream({ method: BoardService.method.streamTicks, request: { name: "pins" } });
      expectStatus(kind, ticks, 12, "rdk:component:board/pins does not support StreamTicks", { opid: true, stream: true });
      expect(ticks.messages).toEqual([]);
      const missing = await client.stream({ method: BoardService.method.streamTicks, request: { name: "nope" } });
      expectStatus(kind, missing, 5, 'no rdk:component:board named "nope"', { opid: true, stream: true });
    },
  },
  {
    name: "NOT_FOUND for a missing resource: code, message, no details, the operation named",
    machine: "open",
    needs: ["error-status"],
    async run({ kind, open }) {
      const outcome = await open().unary({ method: getReadings, request: { name: "nope" } });
      expectStatus(kind, outcome, 5, 'no rdk:component:sensor named "nope"', { opid: true });
    },
  },
  {
    name: "UNIMPLEMENTED for an unknown method and an unknown service, without an operation",
    machine: "open",
    needs: ["early-answer", "error-status"],
    async run({ kind, open }) {
      const client = open();
      const method = phantomMethod(getReadings, "viam.component.sensor.v1.SensorService", "Calibrate");
      expectStatus(kind, await client.unary({ method, request: { name: "temp" } }), 12,
        "unknown method Calibrate for service viam.component.sensor.v1.SensorService", unknownPath);
      const service = phantomMethod(getReadings, "viam.service.shell.v1.ShellService", "Shell");
      expectStatus(kind, await client.unary({ method: service, request: { name: "temp" } }), 12,
        "unknown service viam.service.shell.v1.ShellService", unknownPath);
    },
  },
  {
    name: "metadata: every answer names its own operation; custom request metadata is not echoed",
    machine: "open",
    needs: ["metadata"],
    async run({ kind, open }) {
      const client = open();
      const first = await client.unary({ method: getReadings, request: { name: "temp" }, headers: { "x-wire-probe": "hello" } });
      const second = await client.unary({ method: getReadings, request: { name: "temp" } });
      expectValue(kind, first, { readings: READINGS });
      expect(expectOperationId(second)).not.toBe(expectOperationId(first));
      expect(first.metadata["x-wire-probe"]).toBeUndefined();
    },
  },
  {
    name: "metadata: an unknown session (viam-sid) is INVALID_ARGUMENT SESSION_EXPIRED",
    machine: "open",
    needs: ["metadata", "error-status"],
    async run({ kind, open }) {
      const outcome = await open().unary({
        method: getReadings,
        request: { name: "temp" },
        headers: { "viam-sid": "00000000-0000-4000-8000-000000000000" },
      });
      expectStatus(kind, outcome, 3, "SESSION_EXPIRED", { opid: false });
    },
  },
];
