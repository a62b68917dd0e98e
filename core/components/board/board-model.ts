// A board model on the IO of the hardware it stands for: GPIO, PWM, analog readers and digital
// interrupts served through one IOProvider. The fake board runs it on the simulated board; a
// host registers the same model under its own names on its own IO (the Raspberry Pi and the
// generic Linux board on the Linux backends), adding the attributes its hardware needs.
import { requireIO, type IOProvider } from "../../../hal/io.js";
import type { ConfigIssue, ResourceConfig } from "../../config/index.js";
import { formatResourceName, type ModelRegistration } from "../../resource/index.js";
import { failOnIssues } from "../attributes.js";
import { BOARD_API } from "../api-names.js";
import { closeAll } from "../close-all.js";
import { Code, SvcError } from "../../errors/index.js";
import { requireFinite } from "../require-finite.js";
import type { Board } from "../apis/board.js";
import { boardAttributesSchema, readBoardAttributes } from "./board-attributes.js";
import { openBoardInputs } from "./board-inputs.js";
import { createBoardPins } from "./board-pins.js";
import { createLentIO } from "./lent-io.js";

export interface BoardModelOptions {
  /** The IO of the hardware a board entry stands for: a simulated board, a Linux board, a test's own. */
  ioForBoard(config: ResourceConfig): IOProvider | Promise<IOProvider>;
}

/** Attributes a host's board reads beyond the common ones (a Linux board's pin table). */
export interface BoardHostAttributes {
  /** JSON schema properties, published with the common ones by -dump-resources. */
  properties: Record<string, unknown>;
  /** Problems with their paths (`components[1].attributes.pins.LED`); `path` is the entry's. */
  validate(attributes: Record<string, unknown>, path: string): ConfigIssue[];
}

export interface BoardModelDefinition extends BoardModelOptions {
  model: string;
  hostAttributes?: BoardHostAttributes;
}

/** WriteAnalog on a pin without a DAC is PWM at this many steps, as Arduino's analogWrite. */
export const ANALOG_WRITE_MAX = 255;

export function boardModel(definition: BoardModelDefinition): ModelRegistration<Board> {
  const host = definition.hostAttributes;
  const issuesOf = (attributes: Record<string, unknown>, path: string): ConfigIssue[] => {
    const issues = readBoardAttributes(attributes, path).issues;
    return host ? issues.concat(host.validate(attributes ?? {}, path)) : issues;
  };
  return {
    api: BOARD_API,
    model: definition.model,
    attributesSchema: host
      ? { ...boardAttributesSchema, properties: { ...boardAttributesSchema.properties, ...host.properties } }
      : boardAttributesSchema,
    validate(config, path) {
      return { issues: issuesOf(config.attributes, path) };
    },
    async build(ctx) {
      const path = formatResourceName(ctx.name);
      failOnIssues(issuesOf(ctx.config.attributes, path));
      const { value: attrs } = readBoardAttributes(ctx.config.attributes, path);
      const io = await definition.ioForBoard(ctx.config);
      const boardName = ctx.name.name;
      const inputs = openBoardInputs({ io, boardName, analogs: attrs.analogs, interrupts: attrs.digitalInterrupts });
      const interruptUse = (pin: string) => {
        const name = inputs.interruptOn(pin);
        return name === undefined ? undefined : `digital interrupt ${JSON.stringify(name)}`;
      };
      // The lent IO and the board's own pins ask each other about a pin, only when called.
      const lent = createLentIO(io, boardName, (pin) => interruptUse(pin) ?? pins.use(pin));
      const heldByComponent = "a component wired to the board holds it";
      const pins = createBoardPins({
        io,
        boardName,
        blocked: (pin) => (lent.lent(pin) ? heldByComponent : interruptUse(pin)),
      });
      let closed = false;
      const open = () => {
        if (closed) throw new SvcError(Code.Unavailable, `board ${boardName} is closed`);
      };

      return {
        name: ctx.name,
        async setGPIO(pin, high) {
          open();
          pins.setLevel(pin, high);
        },
        async getGPIO(pin) {
          open();
          if (inputs.interruptOn(pin) !== undefined) return inputs.readInterruptPin(pin);
          const driven = pins.driven(pin) ?? lent.level(pin);
          if (driven !== undefined) return driven;
          // A pin nobody holds is read as an input for the moment of the read.
          const input = new (requireIO(io, "Digital"))({ pin, mode: "input" });
          try {
            return input.read() === 1;
          } finally {
            input.close();
          }
        },
        // A pin a component holds reads as the component drives it; only writing it is refused.
        async pwm(pin) {
          open();
          return lent.pwm(pin)?.duty ?? pins.duty(pin);
        },
        async setPWM(pin, dutyCycle) {
          open();
          pins.setDuty(pin, dutyCycle);
        },
        async pwmFrequency(pin) {
          open();
          return lent.pwm(pin)?.hz ?? pins.frequency(pin);
        },
        async setPWMFrequency(pin, hz) {
          open();
          pins.setFrequency(pin, hz);
        },
        async readAnalogReader(name) {
          open();
          return inputs.readAnalog(name);
        },
        async writeAnalog(pin, value) {
          open();
          requireFinite(value, "value");
          if (Math.floor(value) !== value || value < 0 || value > ANALOG_WRITE_MAX) {
            throw new SvcError(Code.InvalidArgument, `analog value must be a whole number from 0 to ${ANALOG_WRITE_MAX}, got ${value}`);
          }
          pins.setDuty(pin, value / ANALOG_WRITE_MAX);
        },
        async getDigitalInterruptValue(name) {
          open();
          return inputs.interruptCount(name);
        },
        boardIO: () => lent.provider,
        async doCommand(command) {
          return command;
        },
        async close() {
          if (closed) return;
          closed = true;
          closeAll([pins, inputs], (part) => part.close());
        },
      };
    },
  };
}
