// The attributes both fake audio models read, as Viam's fake audio in names them: `sample_rate`
// and `num_channels`, with Viam's defaults (44100 Hz, mono), 0 standing for the default as in
// Viam's. The bounds keep a 100 ms chunk well within one message.
import type { AttributeReader } from "../attributes.js";

export const DEFAULT_SAMPLE_RATE = 44_100;
export const DEFAULT_CHANNELS = 1;
export const MAX_SAMPLE_RATE = 192_000;
// A chunk needs at least one sample of its 100 ms.
export const MIN_SAMPLE_RATE = 10;
export const MAX_CHANNELS = 16;

export interface AudioFormatAttributes {
  sampleRateHz: number;
  numChannels: number;
}

function orDefault(a: AttributeReader, key: string, min: number, max: number, fallback: number): number {
  const value = a.number(key, { integer: true, min: 0, max, default: fallback })!;
  if (value === 0) return fallback;
  if (value < min) {
    a.problem(key, `must be 0 (for ${fallback}) or at least ${min}`);
    return fallback;
  }
  return value;
}

export function readAudioFormat(a: AttributeReader): AudioFormatAttributes {
  return {
    sampleRateHz: orDefault(a, "sample_rate", MIN_SAMPLE_RATE, MAX_SAMPLE_RATE, DEFAULT_SAMPLE_RATE),
    numChannels: orDefault(a, "num_channels", 1, MAX_CHANNELS, DEFAULT_CHANNELS),
  };
}

export const audioFormatSchema = {
  sample_rate: {
    type: "integer",
    minimum: 0,
    maximum: MAX_SAMPLE_RATE,
    default: DEFAULT_SAMPLE_RATE,
    description: `samples per second, per channel: ${MIN_SAMPLE_RATE} or more, 0 for the default`,
  },
  num_channels: { type: "integer", minimum: 0, maximum: MAX_CHANNELS, default: DEFAULT_CHANNELS, description: "channels, interleaved; 0 for the default" },
};
