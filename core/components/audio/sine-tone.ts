// A sine tone as a function of time: sample n of the tone is sample n counted from the epoch at
// the tone's rate, so any stretch of time has the same samples whichever stream asks for it, and
// a stream that continues an earlier one continues its wave exactly. The phase is worked out from
// whole seconds and the sample within the second: at today's sample counts (around 2^46)
// multiplying them out in floating point would be off by several steps of a 16-bit sample.
import { PCM16_MAX } from "./pcm16.js";

export interface SineTone {
  frequencyHz: number;
  sampleRateHz: number;
  /** Of full scale, 0 to 1. */
  amplitude: number;
}

/** The index of the sample under `ns` nanoseconds since the epoch, rounded down. */
export function sampleIndexAt(ns: bigint, sampleRateHz: number): bigint {
  return (ns * BigInt(sampleRateHz)) / 1_000_000_000n;
}

/** The value, -32767 to 32767, of sample `n` of the tone. */
export function toneSample(tone: SineTone, n: bigint): number {
  const rate = BigInt(tone.sampleRateHz);
  const seconds = Number(n / rate);
  const within = Number(n % rate);
  // Whole cycles in whole seconds drop out: only the frequency's fraction leaves a phase behind.
  const fraction = tone.frequencyHz - Math.floor(tone.frequencyHz);
  const secondsPhase = (fraction * seconds) % 1;
  const cycles = secondsPhase + (tone.frequencyHz * within) / tone.sampleRateHz;
  return Math.round(tone.amplitude * PCM16_MAX * Math.sin(2 * Math.PI * cycles));
}

/** `count` samples of the tone from sample `first` on. */
export function toneSamples(tone: SineTone, first: bigint, count: number): number[] {
  const values: number[] = [];
  for (let i = 0; i < count; i++) values.push(toneSample(tone, first + BigInt(i)));
  return values;
}
