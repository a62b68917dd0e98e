// The fake encoder (rdk:builtin:fake): counts ticks. On its own it stays where it is; a fake
// motor that names it in its `encoder` attribute drives it, so its ticks follow what the motor
// turned.
import type { ModelRegistration, Resource } from "../../resource/index.js";
import { ENCODER_API, FAKE_MODEL } from "../api-names.js";
import { Code, SvcError } from "../../errors/index.js";
import type { Encoder } from "../apis/encoder.js";

export interface FakeEncoder extends Encoder {
  /**
   * Makes the ticks follow `source` (fractional ticks, any origin) from now on, for `owner`;
   * returns the function that lets go. One source at a time.
   */
  follow(owner: string, source: () => number): () => void;
}

export function isFakeEncoder(resource: Resource | undefined): resource is FakeEncoder {
  return resource !== undefined && typeof (resource as Partial<FakeEncoder>).follow === "function";
}

// A tick is counted once the source is within this of it, so 2.9999999999 ticks of float
// arithmetic still counts 3.
const TICK_SLACK = 1e-6;

export const fakeEncoderModel: ModelRegistration<FakeEncoder> = {
  api: ENCODER_API,
  model: FAKE_MODEL,
  attributesSchema: { type: "object", properties: {}, additionalProperties: true },
  async build(ctx) {
    let held = 0;
    let source: (() => number) | undefined;
    let base = 0;
    let owner = "";

    const ticks = () => (source ? held + Math.floor(source() - base + TICK_SLACK) : held);

    return {
      name: ctx.name,
      follow(by, next) {
        if (source) throw new SvcError(Code.Unavailable, `encoder ${ctx.name.name} is already driven by ${owner}`);
        held = ticks();
        source = next;
        base = next();
        owner = by;
        return () => {
          if (source !== next) return;
          held = ticks();
          source = undefined;
        };
      },
      async getPosition(positionType = "unspecified") {
        if (positionType === "angle_degrees") {
          throw new SvcError(Code.InvalidArgument, `encoder ${ctx.name.name} counts ticks only; ask for ticks_count`);
        }
        return { value: ticks(), positionType: "ticks_count" };
      },
      async resetPosition() {
        held = 0;
        if (source) base = source();
      },
      async getProperties() {
        return { ticksCountSupported: true, angleDegreesSupported: false };
      },
      async doCommand(command) {
        return command;
      },
      async close() {
        source = undefined;
      },
    };
  },
};
