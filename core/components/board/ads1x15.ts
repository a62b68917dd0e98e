// An analog input read through an ADS1115 or ADS1015 converter on I2C (SMBus), for boards with
// no analog inputs of their own (a Raspberry Pi). Each read is a single-shot conversion: write
// the configuration with the OS bit, wait for OS to read back 1, read the conversion register.
import { IOError, requireIO, type Analog, type IOProvider } from "../../../hal/io.js";

export type Ads1x15Part = "ads1115" | "ads1015";

export interface Ads1x15Options {
  part: Ads1x15Part;
  bus: number;
  address: number;
  /** Input 0 to 3, read single-ended against ground. */
  channel: number;
}

/** Full scale of the gain used (PGA 001): inputs up to 4.096 V read in full. */
export const ADS1X15_FULL_SCALE_VOLTS = 4.096;
const PGA_4V096 = 0b001 << 9;
const SINGLE_SHOT = 1 << 8;
const COMPARATOR_OFF = 0b11;
/** The fastest data rate of each part, so a read takes about a millisecond. */
const FASTEST = { ads1115: 0b111 << 5, ads1015: 0b110 << 5 };
/** How many times the OS bit is polled before the conversion counts as lost. */
const POLLS = 200;

export interface Ads1x15Analog extends Analog {
  /** Volts of a full-scale reading. */
  readonly fullScaleVolts: number;
}

export function openAds1x15Analog(io: IOProvider, options: Ads1x15Options): Ads1x15Analog {
  const { part, bus, address, channel } = options;
  if (!Number.isInteger(channel) || channel < 0 || channel > 3) {
    throw new IOError("invalid", `an ${part.toUpperCase()} has inputs 0 to 3, not ${channel}`);
  }
  const where = `${part.toUpperCase()} at 0x${address.toString(16)} on I2C bus ${bus}`;
  const smbus = new (requireIO(io, "SMBus"))({ bus, address, hz: 400_000 });
  const config = 0x8000 | ((0b100 + channel) << 12) | PGA_4V096 | SINGLE_SHOT | FASTEST[part] | COMPARATOR_OFF;
  let closed = false;
  return {
    // Single-ended readings are the positive half of the signed code.
    resolution: part === "ads1115" ? 15 : 11,
    fullScaleVolts: ADS1X15_FULL_SCALE_VOLTS,
    read() {
      if (closed) throw new IOError("closed", `analog input ${channel} of the ${where} is closed`);
      smbus.writeUint16(1, config, true);
      let done = false;
      for (let i = 0; i < POLLS && !done; i++) done = (smbus.readUint16(1, true) & 0x8000) !== 0;
      if (!done) throw new IOError("io", `the ${where} did not finish a conversion`);
      const raw = smbus.readUint16(0, true);
      const signed = raw & 0x8000 ? raw - 0x10000 : raw;
      const code = part === "ads1115" ? signed : signed >> 4;
      return code < 0 ? 0 : code;
    },
    close() {
      if (closed) return;
      closed = true;
      smbus.close();
    },
  };
}
