// A board model on the IO of the hardware it stands for: GPIO, PWM, analog readers and digital
// interrupts served through one IOProvider. The fake board runs it on the simulated board; a
// host registers the same model under its own names on its own IO (the Raspberry Pi and the
// generic Linux board on the Linux backends), adding the attributes its hardware needs.
import { requireIO, type IOProvider } from "../../../hal/io.js";
import type { ConfigIssue, ResourceConfig } from "../../config/index.js";
import { formatResourceName, type BuildContext, type CommandPayload, type ModelRegistration, type ResourceName } from "../../resource/index.js";
import { failOnIssues } from "../attributes.js";
import { BOARD_API } from "../api-names.js";
import { closeAll } from "../close-all.js";
import { Code, SvcError } from "../../errors/index.js";
import { requireFinite } from "../require-finite.js";
import type { AnalogValue, Board } from "../apis/board.js";
import { boardAttributesSchema, readBoardAttributes } from "./board-attributes.js";
import { openBoardInputs, type BoardInputs } from "./board-inputs.js";
import { createBoardPins, type BoardPins } from "./board-pins.js";
import { createLentIO, type LentIO } from "./lent-io.js";

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

// The registration's functions are thin: a closure made when the model is registered carries a
// copy of its code on a microcontroller, so the work is in module functions made once.
export function boardModel(definition: BoardModelDefinition): ModelRegistration<Board> {
  const host = definition.hostAttributes;
  return {
    api: BOARD_API,
    model: definition.model,
    attributesSchema: host
      ? { ...boardAttributesSchema, properties: { ...boardAttributesSchema.properties, ...host.properties } }
      : boardAttributesSchema,
    validate: (config, path) => ({ issues: boardIssues(definition, config.attributes, path) }),
    build: (ctx) => buildBoard(ctx, definition),
  };
}

function boardIssues(definition: BoardModelDefinition, attributes: Record<string, unknown>, path: string): ConfigIssue[] {
  const host = definition.hostAttributes;
  const issues = readBoardAttributes(attributes, path).issues;
  return host ? issues.concat(host.validate(attributes ?? {}, path)) : issues;
}

async function buildBoard(ctx: BuildContext, definition: BoardModelDefinition): Promise<Board> {
  const path = formatResourceName(ctx.name);
  failOnIssues(boardIssues(definition, ctx.config.attributes, path));
  const { value: attrs } = readBoardAttributes(ctx.config.attributes, path);
  const io = await definition.ioForBoard(ctx.config);
  const inputs = openBoardInputs({ io, boardName: ctx.name.name, analogs: attrs.analogs, interrupts: attrs.digitalInterrupts });
  return new ModelBoard(ctx.name, io, inputs);
}

const heldByComponent = "a component wired to the board holds it";

/**
 * A board on its IO. A class, so the boards a machine builds share their methods: on a
 * microcontroller each closure made per build carries a copy of its code.
 */
class ModelBoard implements Board {
  private readonly lent: LentIO;
  private readonly pins: BoardPins;
  private closed = false;

  constructor(
    readonly name: ResourceName,
    private readonly io: IOProvider,
    private readonly inputs: BoardInputs,
  ) {
    const boardName = name.name;
    // The lent IO and the board's own pins ask each other about a pin, only when called.
    this.lent = createLentIO(io, boardName, (pin) => this.interruptUse(pin) ?? this.pins.use(pin));
    this.pins = createBoardPins({
      io,
      boardName,
      blocked: (pin) => (this.lent.lent(pin) ? heldByComponent : this.interruptUse(pin)),
    });
  }

  private interruptUse(pin: string): string | undefined {
    const name = this.inputs.interruptOn(pin);
    return name === undefined ? undefined : `digital interrupt ${JSON.stringify(name)}`;
  }

  private open(): void {
    if (this.closed) throw new SvcError(Code.Unavailable, `board ${this.name.name} is closed`);
  }

  async setGPIO(pin: string, high: boolean): Promise<void> {
    this.open();
    this.pins.setLevel(pin, high);
  }

  async getGPIO(pin: string): Promise<boolean> {
    this.open();
    if (this.inputs.interruptOn(pin) !== undefined) return this.inputs.readInterruptPin(pin);
    const driven = this.pins.driven(pin) ?? this.lent.level(pin);
    if (driven !== undefined) return driven;
    // A pin nobody holds is read as an input for the moment of the read.
    const input = new (requireIO(this.io, "Digital"))({ pin, mode: "input" });
    try {
      return input.read() === 1;
    } finally {
      input.close();
    }
  }

  // A pin a component holds reads as the component drives it; only writing it is refused.
  async pwm(pin: string): Promise<number> {
    this.open();
    return this.lent.pwm(pin)?.duty ?? this.pins.duty(pin);
  }

  async setPWM(pin: string, dutyCycle: number): Promise<void> {
    this.open();
    this.pins.setDuty(pin, dutyCycle);
  }

  async pwmFrequency(pin: string): Promise<number> {
    this.open();
    return this.lent.pwm(pin)?.hz ?? this.pins.frequency(pin);
  }

  async setPWMFrequency(pin: string, hz: number): Promise<void> {
    this.open();
    this.pins.setFrequency(pin, hz);
  }

  async readAnalogReader(name: string): Promise<AnalogValue> {
    this.open();
    return this.inputs.readAnalog(name);
  }

  async writeAnalog(pin: string, value: number): Promise<void> {
    this.open();
    requireFinite(value, "value");
    if (Math.floor(value) !== value || value < 0 || value > ANALOG_WRITE_MAX) {
      throw new SvcError(Code.InvalidArgument, `analog value must be a whole number from 0 to ${ANALOG_WRITE_MAX}, got ${value}`);
    }
    this.pins.setDuty(pin, value / ANALOG_WRITE_MAX);
  }

  async getDigitalInterruptValue(name: string): Promise<number> {
    this.open();
    return this.inputs.interruptCount(name);
  }

  boardIO(): IOProvider {
    return this.lent.provider;
  }

  async doCommand(command: CommandPayload): Promise<CommandPayload> {
    return command;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    closeAll([this.pins, this.inputs], (part) => part.close());
  }
}
