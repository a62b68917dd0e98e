// Hardware PWM through sysfs (/sys/class/pwm/pwmchipN/pwmM): a channel is exported when opened,
// set up with period and duty cycle in nanoseconds, enabled, and on close disabled and given
// back (unexported) if this host exported it. The root is injectable so tests run on a tree in
// a temporary directory.
import { existsSync, readFileSync, readdirSync, readlinkSync, writeFileSync } from "node:fs";
import { basename, join } from "node:path";
import { IOError, type PinSpecifier, type PWM, type PWMOptions } from "../io.js";
import type { PwmBlock } from "./board-definitions.js";
import { ioErrorFrom } from "./system-error.js";

/** Duty resolution when the driver does not ask for one. */
export const DEFAULT_PWM_RESOLUTION = 16;

export interface PwmReading {
  hz: number;
  /** 0..1 */
  duty: number;
  enabled: boolean;
}

export interface SysfsPwmOptions {
  /** `/sys/class/pwm` */
  root: string;
  boardName: string;
  blocks: readonly PwmBlock[];
  /** The GPIO line of a pin name (its hardware PWM channel is looked up by line). */
  lineOf(pin: PinSpecifier): number;
}

export interface SysfsPwm {
  PWM: new (options: PWMOptions) => PWM;
  /** What the hardware is doing on a pin's channel, read back from sysfs; undefined when not exported. */
  readBack(pin: PinSpecifier): PwmReading | undefined;
}

/** The sysfs directory of a chip: by name, or the chip whose `device` link ends in the platform device. */
export function findPwmChip(root: string, block: PwmBlock): string | undefined {
  if ("name" in block.chip) {
    const dir = join(root, block.chip.name);
    return existsSync(dir) ? dir : undefined;
  }
  const device = block.chip.device;
  let chips: string[] = [];
  try {
    chips = readdirSync(root).filter((n) => n.startsWith("pwmchip"));
  } catch {
    return undefined;
  }
  for (const chip of chips) {
    try {
      if (basename(readlinkSync(join(root, chip, "device"))) === device) return join(root, chip);
    } catch {
      // A chip without a device link is not the one.
    }
  }
  return undefined;
}

export function createSysfsPwm(options: SysfsPwmOptions): SysfsPwm {
  const held = new Set<string>();

  const channelOf = (pin: PinSpecifier) => pwmChannelOf(options, pin);
  const readNumber = (dir: string, file: string): number => Number(readFileSync(join(dir, file), "utf8").trim());

  class SysfsPWM implements PWM {
    readonly hz: number;
    readonly resolution: number;
    private readonly dir: string;
    private readonly periodNs: number;
    private readonly exported: { chipDir: string; channel: number } | undefined;
    private closed = false;

    constructor(o: PWMOptions) {
      if (!(o.hz > 0) || !isFinite(o.hz)) throw new IOError("invalid", `PWM frequency must be positive, got ${o.hz}`);
      const resolution = o.resolution ?? DEFAULT_PWM_RESOLUTION;
      if (!Number.isInteger(resolution) || resolution < 1 || resolution > 32) throw new IOError("invalid", `PWM resolution must be 1 to 32 bits, got ${resolution}`);
      const { chipDir, channel } = channelOf(o.pin);
      const dir = join(chipDir, `pwm${channel}`);
      if (held.has(dir)) throw new IOError("busy", `pin ${o.pin}: PWM channel ${channel} of ${chipDir} is already in use`);
      let exported: { chipDir: string; channel: number } | undefined;
      if (!existsSync(dir)) {
        write(chipDir, "export", channel);
        exported = { chipDir, channel };
        if (!existsSync(dir)) {
          write(chipDir, "unexport", channel);
          throw new IOError("io", `${dir} did not appear after export`);
        }
      }
      this.hz = o.hz;
      this.resolution = resolution;
      this.dir = dir;
      this.exported = exported;
      this.periodNs = Math.max(1, Math.round(1e9 / o.hz));
      try {
        // Duty first: a period shorter than the duty cycle already set is refused by the kernel.
        write(dir, "duty_cycle", 0);
        write(dir, "period", this.periodNs);
        write(dir, "enable", 1);
      } catch (thrown) {
        try {
          this.release();
        } catch {
          // The first failure is the one to report; the channel is given back as far as it can be.
        }
        throw thrown;
      }
      held.add(dir);
    }

    write(value: number): void {
      if (this.closed) throw new IOError("closed", `PWM ${this.dir} is closed`);
      const max = 2 ** this.resolution - 1;
      if (!Number.isInteger(value) || value < 0 || value > max) {
        throw new IOError("invalid", `PWM value must be a whole number from 0 to ${max}, got ${value}`);
      }
      write(this.dir, "duty_cycle", Math.round((value / max) * this.periodNs));
    }

    close(): void {
      if (this.closed) return;
      this.closed = true;
      held.delete(this.dir);
      this.release();
    }

    private release(): void {
      try {
        write(this.dir, "enable", 0);
      } finally {
        if (this.exported) write(this.exported.chipDir, "unexport", this.exported.channel);
      }
    }
  }

  return {
    PWM: SysfsPWM,
    readBack(pin) {
      const { chipDir, channel } = channelOf(pin);
      const dir = join(chipDir, `pwm${channel}`);
      if (!existsSync(dir)) return undefined;
      const period = readNumber(dir, "period");
      const duty = readNumber(dir, "duty_cycle");
      return { hz: period > 0 ? 1e9 / period : 0, duty: period > 0 ? duty / period : 0, enabled: readNumber(dir, "enable") === 1 };
    },
  };
}

/** The chip and channel carrying a pin's hardware PWM; an IOError saying what to enable, or where PWM is, when none. */
export function pwmChannelOf(options: Pick<SysfsPwmOptions, "root" | "boardName" | "blocks" | "lineOf">, pin: PinSpecifier): { chipDir: string; channel: number } {
  const { root, boardName, blocks } = options;
  const line = options.lineOf(pin);
  const pwmPins = new Set<number>();
  const looked: string[] = [];
  for (const block of blocks) {
    const channel = block.channels[line];
    Object.keys(block.channels).forEach((l) => pwmPins.add(Number(l)));
    if (channel === undefined) continue;
    const chipDir = findPwmChip(root, block);
    if (chipDir) return { chipDir, channel };
    looked.push("name" in block.chip ? join(root, block.chip.name) : `a chip of ${block.chip.device} under ${root}`);
  }
  if (looked.length) {
    throw new IOError("io", `${looked.join(" or ")} not found: enable ${boardName}'s hardware PWM (on a Pi: dtoverlay=pwm-2chan in config.txt)`);
  }
  const list = pwmPins.size ? `hardware PWM is on GPIO ${Array.from(pwmPins).sort((a, b) => a - b).join(", ")}` : "it has no hardware PWM";
  throw new IOError("unsupported", `pin ${pin} of ${boardName} has no hardware PWM: ${list}`);
}

function write(dir: string, file: string, value: number | string): void {
  try {
    writeFileSync(join(dir, file), String(value));
  } catch (thrown) {
    throw ioErrorFrom(thrown, join(dir, file));
  }
}
