// The table of served APIs is what every target serves: each row is announced and answered on
// every target it names. svc-server (the real process) runs a fake of every API it serves and
// the official SDK's ResourceRPCSubtypes lists exactly the table's Linux rows, each service
// answering on its path; svc-mcu's machine runs a fake of every API it serves, its dispatcher
// answers each row's service and its ResourceRPCSubtypes lists exactly the MCU rows; the wire
// tables the MCU's codec reads hold exactly the table's MCU rows around the machine's services.
import { fromBinary } from "@bufbuild/protobuf";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type * as VIAM from "@viamrobotics/sdk";
import { apisServedOn, createManualClock, type ServedApi } from "../../core/index.js";
import { createSimBoard } from "../../hal/sim/index.js";
import { DoCommandRequestSchema } from "../../proto/gen/common/v1/common_pb.js";
import { ResourceRPCSubtypesRequestSchema, ResourceRPCSubtypesResponseSchema } from "../../proto/gen/robot/v1/robot_pb.js";
import { wireTables } from "../../targets/mcu/codec/index.js";
import { createMcuMachine, type McuMachine } from "../../targets/mcu/mcu-machine.js";
import { dialSdk } from "../helpers/sdk-robot.js";
import { startSvcServer, type SvcServerProcess } from "../helpers/svc-server-process.js";
import { parse, request } from "../mcu/grpc-web-body.js";

// One fake of each API: components and services in their own lists, as a configuration has them.
function machineOf(rows: ReadonlyArray<readonly [string, ServedApi]>): { components: object[]; services: object[] } {
  const entry = ([key, row]: readonly [string, ServedApi]) => ({ name: key.toLowerCase(), api: row.api, model: "rdk:builtin:fake", attributes: {} });
  return {
    components: rows.filter(([, row]) => row.api.includes(":component:")).map(entry),
    services: rows.filter(([, row]) => row.api.includes(":service:")).map(entry),
  };
}

const subtypeOf = (s: { subtype?: { namespace: string; type: string; subtype: string }; protoService: string }) =>
  `${s.subtype?.namespace}:${s.subtype?.type}:${s.subtype?.subtype} ${s.protoService}`;

const announced = (rows: ReadonlyArray<readonly [string, ServedApi]>) => rows.map(([, row]) => `${row.api} ${row.service}`).sort();

describe("the table of served APIs on svc-server", () => {
  const linux = apisServedOn("linux");
  let server: SvcServerProcess;
  let robot: VIAM.RobotClient | undefined;

  beforeAll(async () => {
    server = await startSvcServer(machineOf(linux));
  });

  afterAll(async () => {
    await robot?.disconnect();
    await server?.stop();
  });

  it("lists every Linux row in ResourceRPCSubtypes, as the official SDK reads it", async () => {
    robot = await dialSdk(server.sdkHost);
    const subtypes = await robot.resourceRPCSubtypes();
    expect(subtypes.map(subtypeOf).sort()).toEqual(announced(linux));
  });

  it("answers each Linux row's service on its path (a missing resource is NOT_FOUND, not UNIMPLEMENTED)", async () => {
    for (const [, row] of linux) {
      const response = await fetch(`${server.url}/${row.service}/DoCommand`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ name: "nope", command: {} }),
      });
      expect({ service: row.service, answer: await response.json() }).toMatchObject({ service: row.service, answer: { code: "not_found" } });
    }
  });
});

describe("the table of served APIs on svc-mcu", () => {
  const mcu = apisServedOn("mcu");
  let machine: McuMachine;

  afterEach(async () => {
    await machine?.close();
  });

  async function startMachine(): Promise<McuMachine> {
    machine = createMcuMachine({ clock: createManualClock(1_700_000_000_000), random: Math.random, ioForBoard: () => createSimBoard().io, sink: { write() {} } });
    expect(await machine.applyConfig(JSON.stringify(machineOf(mcu)))).toMatchObject({ outcome: "applied" });
    return machine;
  }

  it("lists every MCU row in ResourceRPCSubtypes", async () => {
    await startMachine();
    const body = request(ResourceRPCSubtypesRequestSchema, {});
    const answer = parse(await machine.serve({ path: "/viam.robot.v1.RobotService/ResourceRPCSubtypes", body }).done);
    expect(answer.status).toBe(0);
    const { resourceRpcSubtypes } = fromBinary(ResourceRPCSubtypesResponseSchema, answer.message!);
    expect(resourceRpcSubtypes.map(subtypeOf).sort()).toEqual(announced(mcu));
  });

  it("dispatches each MCU row's service (a missing resource is NOT_FOUND, not UNIMPLEMENTED)", async () => {
    await startMachine();
    for (const [, row] of mcu) {
      const answer = parse(await machine.serve({ path: `/${row.service}/DoCommand`, body: request(DoCommandRequestSchema, { name: "nope" }) }).done);
      expect({ service: row.service, status: answer.status }).toEqual({ service: row.service, status: 5 });
    }
  });

  it("has wire tables for exactly the MCU rows, between RobotService and AuthService", () => {
    expect(wireTables.services.map(([service]) => service)).toEqual([
      "viam.robot.v1.RobotService",
      ...mcu.map(([, row]) => row.service),
      "proto.rpc.v1.AuthService",
    ]);
  });
});
