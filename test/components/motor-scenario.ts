// A motor scenario as pure data: a fake motor driving a fake encoder on a manual clock, commands
// and clock steps in order, samples of what the motor reports. It returns JSON, so the same
// scenario can run on Node and in XS and the answers be compared.
import type { ResourceConfig } from "../../core/config/index.js";
import { errorMessage } from "../../core/errors/index.js";
import { createManualClock } from "../../core/manual-clock.js";
import {
  createModelRegistry,
  parseApi,
  silentLogger,
  validateResourceConfig,
  type Resource,
} from "../../core/resource/index.js";
import { ENCODER_API, FAKE_MODEL, MOTOR_API } from "../../core/components/api-names.js";
import type { Encoder } from "../../core/components/apis/encoder.js";
import type { Motor } from "../../core/components/apis/motor.js";
import { fakeEncoderModel } from "../../core/components/fake/encoder.js";
import { fakeMotorModel } from "../../core/components/fake/motor.js";

export type MotorScenarioStep =
  | { setPower: number }
  | { setRPM: number }
  | { goFor: { rpm: number; revolutions: number } }
  | { goTo: { rpm: number; position: number } }
  | { resetZeroPosition: number }
  | { stop: true }
  | { advance: number }
  | { sample: string };

export interface MotorScenarioInput {
  /** The fake motor's attributes; `encoder` is set to the scenario's encoder. */
  motor?: Record<string, unknown>;
  steps: MotorScenarioStep[];
}

export interface MotorScenarioSample {
  label: string;
  at: number;
  position: number;
  ticks: number;
  moving: boolean;
  powerPct: number;
}

export interface MotorScenarioOutput {
  samples: MotorScenarioSample[];
  /** `goFor@2 at 3000`: a call (by step index) and the clock reading when it returned. */
  finished: string[];
  errors: string[];
}

// Enough turns of the job queue for a resolved move to reach the scenario's own callbacks.
async function settle(): Promise<void> {
  for (let i = 0; i < 8; i++) await Promise.resolve();
}

export async function runMotorScenario(input: MotorScenarioInput): Promise<MotorScenarioOutput> {
  const clock = createManualClock(0);
  const registry = createModelRegistry();
  registry.register(fakeEncoderModel);
  registry.register(fakeMotorModel);
  const built = new Map<string, Resource>();
  const output: MotorScenarioOutput = { samples: [], finished: [], errors: [] };

  const build = async (config: ResourceConfig, path: string): Promise<Resource> => {
    const checked = validateResourceConfig(registry, config, path);
    if (checked.issues.length) throw new Error(checked.issues.map((i) => `${i.path}: ${i.message}`).join("; "));
    const api = parseApi(config.api);
    if (!api.ok) throw new Error(api.error);
    const resource = await registry.lookup(config.api, config.model)!.build({
      name: { ...api.value, name: config.name },
      config,
      dependencies: { get: (name) => built.get(name), names: () => checked.requires.slice() },
      logger: silentLogger,
      clock,
      cancelled: () => false,
    });
    built.set(config.name, resource);
    return resource;
  };

  const entry = (api: string, name: string, attributes: Record<string, unknown>): ResourceConfig => ({
    name,
    api,
    model: FAKE_MODEL,
    attributes,
    depends_on: [],
  });
  const encoder = (await build(entry(ENCODER_API, "encoder", {}), "components[0]")) as Encoder;
  const motor = (await build(entry(MOTOR_API, "motor", { ...input.motor, encoder: "encoder" }), "components[1]")) as Motor;

  const track = (label: string, call: () => Promise<void>) => {
    call().then(
      () => output.finished.push(`${label} at ${clock.now()}`),
      (thrown) => output.errors.push(`${label}: ${errorMessage(thrown)}`),
    );
  };

  for (let i = 0; i < input.steps.length; i++) {
    const step = input.steps[i]!;
    if ("advance" in step) clock.advance(step.advance);
    else if ("sample" in step) {
      const ticks = await encoder.getPosition("ticks_count");
      output.samples.push({
        label: step.sample,
        at: clock.now(),
        position: await motor.getPosition(),
        ticks: ticks.value,
        moving: await motor.isMoving(),
        powerPct: (await motor.isPowered()).powerPct,
      });
    } else if ("setPower" in step) track(`setPower@${i}`, () => motor.setPower(step.setPower));
    else if ("setRPM" in step) track(`setRPM@${i}`, () => motor.setRPM(step.setRPM));
    else if ("goFor" in step) track(`goFor@${i}`, () => motor.goFor(step.goFor.rpm, step.goFor.revolutions));
    else if ("goTo" in step) track(`goTo@${i}`, () => motor.goTo(step.goTo.rpm, step.goTo.position));
    else if ("resetZeroPosition" in step) track(`resetZeroPosition@${i}`, () => motor.resetZeroPosition(step.resetZeroPosition));
    else track(`stop@${i}`, () => motor.stop());
    await settle();
  }
  await motor.close();
  await encoder.close();
  return output;
}
