// An API scenario as pure data, run the same way on Node and in XS: a machine of fake models on
// a simulated board and a manual clock, then calls decoded from proto3 JSON with the generated
// schemas, answered by the core handlers, and encoded back to JSON (errors as code and
// message). Motions can be started, the clock moved, calls cancelled and awaited.
import { create, fromJson, toJson, type DescMethod, type DescService, type JsonValue } from "@bufbuild/protobuf";
import { BoardService } from "../../../proto/gen/component/board/v1/board_pb.js";
import { EncoderService } from "../../../proto/gen/component/encoder/v1/encoder_pb.js";
import { GenericService as GenericComponentService } from "../../../proto/gen/component/generic/v1/generic_pb.js";
import { MotorService } from "../../../proto/gen/component/motor/v1/motor_pb.js";
import { MovementSensorService } from "../../../proto/gen/component/movementsensor/v1/movementsensor_pb.js";
import { PowerSensorService } from "../../../proto/gen/component/powersensor/v1/powersensor_pb.js";
import { SensorService } from "../../../proto/gen/component/sensor/v1/sensor_pb.js";
import { ServoService } from "../../../proto/gen/component/servo/v1/servo_pb.js";
import { GenericService as GenericServiceService } from "../../../proto/gen/service/generic/v1/generic_pb.js";
import type { ResourceConfig } from "../../../core/config/index.js";
import {
  createBoardService,
  createEncoderService,
  createGenericComponentService,
  createGenericServiceService,
  createGraphEngine,
  createManualClock,
  createModelRegistry,
  createMotorService,
  createMovementSensorService,
  createPowerSensorService,
  createResourceLookup,
  createSensorService,
  createServoService,
  registerBuiltinModels,
  SvcError,
  type ResourceLookup,
} from "../../../core/index.js";
import { createSimBoard } from "../../../hal/sim/index.js";
import { testCall, type TestCall } from "./rpc-machine.js";

export type RpcScenarioStep =
  | { label: string; service: string; method: string; request: JsonValue; start?: boolean }
  | { advance: number }
  | { cancel: string }
  | { finish: string };

export interface RpcScenarioInput {
  components: ResourceConfig[];
  services?: ResourceConfig[];
  steps: RpcScenarioStep[];
}

export type RpcScenarioResult = { label: string; answer: JsonValue } | { label: string; error: { code: number; message: string } };

export interface RpcScenarioOutput {
  results: RpcScenarioResult[];
  driven: string[];
}

type Handlers = Record<string, (request: unknown, call: TestCall) => Promise<unknown>>;

const services: Record<string, [DescService, (lookup: ResourceLookup) => unknown]> = {
  sensor: [SensorService, createSensorService],
  board: [BoardService, createBoardService],
  motor: [MotorService, createMotorService],
  servo: [ServoService, createServoService],
  encoder: [EncoderService, createEncoderService],
  movement_sensor: [MovementSensorService, createMovementSensorService],
  power_sensor: [PowerSensorService, createPowerSensorService],
  generic: [GenericComponentService, createGenericComponentService],
  generic_service: [GenericServiceService, createGenericServiceService],
};

// XS has no timers: settling means letting queued promise callbacks run.
async function settle(): Promise<void> {
  for (let i = 0; i < 50; i++) await Promise.resolve();
}

export async function runRpcScenario(input: RpcScenarioInput): Promise<RpcScenarioOutput> {
  const clock = createManualClock(0);
  const sim = createSimBoard();
  const registry = createModelRegistry();
  registerBuiltinModels(registry, { ioForBoard: () => sim.io });
  const engine = createGraphEngine({ registry, clock });
  await engine.apply({ components: input.components, services: input.services ?? [] });
  const lookup = createResourceLookup(engine);
  const results: RpcScenarioResult[] = [];
  const driven: string[] = [];
  const started = new Map<string, { call: TestCall; done: Promise<RpcScenarioResult> }>();

  const run = (step: Extract<RpcScenarioStep, { service: string }>, call: TestCall): Promise<RpcScenarioResult> => {
    const [service, factory] = services[step.service]!;
    const method: DescMethod = service.method[step.method]!;
    const handler = (factory(lookup) as Handlers)[step.method]!;
    return handler(fromJson(method.input, step.request), call).then(
      (answer) => ({ label: step.label, answer: toJson(method.output, create(method.output, answer as never)) }),
      (thrown: unknown) => {
        const error = SvcError.from(thrown);
        return { label: step.label, error: { code: error.code, message: error.message } };
      },
    );
  };

  for (const step of input.steps) {
    if ("advance" in step) {
      clock.advance(step.advance);
      await settle();
    } else if ("cancel" in step) {
      started.get(step.cancel)!.call.cancel();
      await settle();
    } else if ("finish" in step) {
      results.push(await started.get(step.finish)!.done);
    } else {
      const call = testCall(`/${services[step.service]![0].typeName}/${step.method}`);
      const done = run(step, call);
      if (step.start) started.set(step.label, { call, done });
      else results.push(await done);
      driven.push(...call.driven);
    }
  }
  await engine.close();
  return { results, driven };
}
