// Digital IO on the GPIO character device (/dev/gpiochipN) through node-libgpiod: a board's pin
// name is resolved to a chip and line by its definition, and each Digital holds one requested
// line. node-libgpiod 0.5 gives no way to wait for the kernel's edge events, so edges are found
// by sampling the line every `edgePollMs`; pulses shorter than that can be missed.
import { existsSync } from "node:fs";
import { IOError, type Digital, type DigitalMode, type DigitalOptions, type PinSpecifier } from "../io.js";
import { lineOfPin, type BoardDefinition } from "./board-definitions.js";
import type { GpiodChip, GpiodLibrary, GpiodLine } from "./native.js";
import { errnoOf, ioErrorFrom } from "./system-error.js";

// libgpiod 1.x request flags.
const OPEN_DRAIN = 1 << 0;
const BIAS_PULL_DOWN = 1 << 4;
const BIAS_PULL_UP = 1 << 5;

export interface LinuxGpioOptions {
  gpiod: GpiodLibrary;
  definition: BoardDefinition;
  /** Where the chips' device files are; `/dev`. */
  devRoot: string;
  /** Sampling period of lines watched for edges. */
  edgePollMs: number;
  /** The consumer name the kernel shows for lines held (`gpioinfo`). */
  consumer: string;
}

export interface LinuxGpio {
  Digital: new (options: DigitalOptions) => Digital;
}

export function createLinuxGpio(options: LinuxGpioOptions): LinuxGpio {
  const { gpiod, definition, devRoot, edgePollMs, consumer } = options;
  let chipName: string | undefined;

  const lineOf = (pin: PinSpecifier): number => lineOfPin(definition, pin);

  // The board's chip, found once: by device name, or by label among the chips present.
  const findChip = (): string => {
    if (chipName !== undefined) return chipName;
    const paths: string[] = [];
    const labels: string[] = [];
    let present: string[] | undefined;
    for (const selector of definition.gpioChips) {
      if ("name" in selector) {
        if (existsSync(`${devRoot}/${selector.name}`)) return (chipName = selector.name);
        paths.push(`${devRoot}/${selector.name}`);
        continue;
      }
      present ??= safeChipNames(gpiod);
      for (const name of present) {
        if (labelOf(gpiod, name) === selector.label) return (chipName = name);
      }
      labels.push(selector.label);
    }
    const why = `${definition.name} needs its GPIO character device (is this the right board, and may this user open ${devRoot}/gpiochip*?)`;
    if (labels.length === 0) throw new IOError("io", `${paths.join(" or ")} not found: ${why}`);
    const also = paths.length ? ` or ${paths.join(", ")}` : "";
    throw new IOError("io", `no GPIO chip labelled ${labels.join(", ")}${also} found: ${why}`);
  };

  class LinuxDigital implements Digital {
    private readonly chip: GpiodChip;
    private readonly line: GpiodLine;
    private readonly where: string;
    private readonly output: boolean;
    private closed = false;
    private poll: ReturnType<typeof setInterval> | undefined;

    constructor(private readonly options: DigitalOptions) {
      const offset = lineOf(options.pin);
      const chip = findChip();
      this.where = `pin ${options.pin} (${chip} line ${offset})`;
      this.output = options.mode === "output" || options.mode === "output-open-drain";
      try {
        this.chip = new gpiod.Chip(chip);
      } catch (thrown) {
        throw ioErrorFrom(thrown, `${devRoot}/${chip}`, "may this user open it? (the gpio group)");
      }
      try {
        this.line = new gpiod.Line(this.chip, offset);
      } catch {
        throw new IOError("invalid", `${chip} has no line ${offset} (it has ${this.chip.numberOfLines})`);
      }
      request(this.line, options.mode, consumer, this.where);
      const onReadable = options.onReadable;
      if (onReadable && !this.output) this.watch(onReadable);
    }

    read(): 0 | 1 {
      this.check();
      try {
        return this.line.getValue() ? 1 : 0;
      } catch (thrown) {
        throw ioErrorFrom(thrown, this.where);
      }
    }

    write(value: 0 | 1): void {
      this.check();
      if (!this.output) throw new IOError("unsupported", `${this.where} is an input`);
      try {
        this.line.setValue(value ? 1 : 0);
      } catch (thrown) {
        throw ioErrorFrom(thrown, this.where);
      }
    }

    close(): void {
      if (this.closed) return;
      this.closed = true;
      if (this.poll !== undefined) clearInterval(this.poll);
      this.line.release();
    }

    private watch(onReadable: () => void): void {
      const edge = this.options.edge ?? "both";
      let last = this.line.getValue() ? 1 : 0;
      this.poll = setInterval(() => {
        if (this.closed) return;
        let now: number;
        try {
          now = this.line.getValue() ? 1 : 0;
        } catch (thrown) {
          clearInterval(this.poll);
          this.options.onError?.(ioErrorFrom(thrown, this.where));
          return;
        }
        if (now === last) return;
        last = now;
        if (edge === "both" || (edge === "rising") === (now === 1)) onReadable();
      }, edgePollMs);
      this.poll.unref?.();
    }

    private check(): void {
      if (this.closed) throw new IOError("closed", `${this.where} is closed`);
    }
  }

  return { Digital: LinuxDigital };
}

/** Requests the line in the mode asked; a failure leaves it unrequested. */
function request(line: GpiodLine, mode: DigitalMode, consumer: string, where: string): void {
  try {
    if (mode === "output") line.requestOutputModeFlags(consumer, 0, 0);
    else if (mode === "output-open-drain") line.requestOutputModeFlags(consumer, OPEN_DRAIN, 1);
    else if (mode === "input-pull-up") line.requestInputModeFlags(consumer, BIAS_PULL_UP);
    else if (mode === "input-pull-down") line.requestInputModeFlags(consumer, BIAS_PULL_DOWN);
    else line.requestInputModeFlags(consumer, 0);
  } catch (thrown) {
    const errno = errnoOf(thrown);
    if (errno === "EBUSY") {
      const holder = safe(() => line.consumer) || "another process";
      throw new IOError("busy", `${where} is already in use by ${holder}`);
    }
    if ((errno === "EINVAL" || errno === "EOPNOTSUPP") && mode.startsWith("input-pull")) {
      throw new IOError("unsupported", `${where}: this kernel or chip cannot set pull resistors on a line (it needs Linux 5.5 or later)`);
    }
    throw ioErrorFrom(thrown, where);
  }
}

function safe<T>(fn: () => T): T | undefined {
  try {
    return fn();
  } catch {
    return undefined;
  }
}

function safeChipNames(gpiod: GpiodLibrary): string[] {
  return safe(() => gpiod.getChipNames()) ?? [];
}

function labelOf(gpiod: GpiodLibrary, name: string): string | undefined {
  return safe(() => new gpiod.Chip(name).label);
}
