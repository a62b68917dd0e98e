// The serial line sensor (rdk:builtin:serial-line): a device that prints `key=value` readings,
// one line at a time, on a serial port. Each key keeps the last value seen, so a device printing
// temperature and humidity on separate lines still gives both in one GetReadings.
import { requireIO, type IOError, type Serial } from "../../../hal/io.js";
import { formatResourceName, type BuildContext, type ModelRegistration } from "../../resource/index.js";
import { failOnIssues, readAttributes, type Parsed } from "../attributes.js";
import { SENSOR_API, SERIAL_LINE_MODEL } from "../api-names.js";
import { Code, SvcError } from "../../errors/index.js";
import type { Sensor } from "../apis/sensor.js";
import type { DeviceIOOptions } from "../device-io.js";
import { createLineSplitter, parseKeyValueLine, type LineValue } from "./key-value-line.js";

export const DEFAULT_SERIAL_BAUD = 9600;
/** Longest line kept; longer ones are dropped whole. */
export const MAX_LINE_BYTES = 1024;

export interface LineSensorAttributes {
  path: string;
  baud: number;
}

export function readLineSensorAttributes(attributes: Record<string, unknown>, path: string): Parsed<LineSensorAttributes> {
  const a = readAttributes(attributes, path);
  const port = a.string("serial_path", true) ?? "";
  const baud = a.number("serial_baud_rate", { integer: true, positive: true, default: DEFAULT_SERIAL_BAUD })!;
  return { value: { path: port, baud }, issues: a.issues };
}

const lineSensorSchema = {
  type: "object",
  required: ["serial_path"],
  properties: {
    serial_path: { type: "string", description: "the serial port, e.g. /dev/ttyUSB0" },
    serial_baud_rate: { type: "integer", minimum: 1, default: DEFAULT_SERIAL_BAUD },
  },
};

// The registration's functions are thin: a closure made when the model is registered carries a
// copy of its code on a microcontroller, so the work is in module functions made once.
export function serialLineSensorModel(options: DeviceIOOptions): ModelRegistration<Sensor> {
  return {
    api: SENSOR_API,
    model: SERIAL_LINE_MODEL,
    attributesSchema: lineSensorSchema,
    validate: (config, path) => ({ issues: readLineSensorAttributes(config.attributes, path).issues }),
    build: (ctx) => buildLineSensor(ctx, options),
  };
}

async function buildLineSensor(ctx: BuildContext, options: DeviceIOOptions): Promise<Sensor> {
  const { value: attrs, issues } = readLineSensorAttributes(ctx.config.attributes, formatResourceName(ctx.name));
  failOnIssues(issues);
  const io = await options.ioForDevices(ctx.config);
  const readings: Record<string, LineValue> = {};
  let seen = false;
  let lastError: IOError | undefined;
  const splitter = createLineSplitter(MAX_LINE_BYTES, (line) => {
    const pairs = parseKeyValueLine(line);
    for (const key in pairs) {
      readings[key] = pairs[key]!;
      seen = true;
    }
  });
  let closed = false;
  const port: Serial = new (requireIO(io, "Serial"))({
    port: attrs.path,
    baud: attrs.baud,
    onReadable: () => {
      const bytes = closed ? undefined : port.read();
      if (bytes) splitter.push(bytes);
    },
    onError: (error) => {
      lastError = error;
      ctx.logger.warn(`serial port ${attrs.path}: ${error.message}`);
    },
  });
  return {
    name: ctx.name,
    async getReadings() {
      if (closed) throw new SvcError(Code.Unavailable, `sensor ${ctx.name.name} is closed`);
      if (!seen) {
        const why = lastError ? `: ${lastError.message}` : "";
        throw new SvcError(Code.Unavailable, `sensor ${ctx.name.name} has no reading from ${attrs.path} yet${why}`);
      }
      return { ...readings };
    },
    async doCommand(command) {
      return command;
    },
    async close() {
      if (closed) return;
      closed = true;
      port.close();
    },
  };
}
