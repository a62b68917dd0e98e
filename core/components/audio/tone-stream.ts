// One stream of a fake audio in's tone, paced by the clock as Viam's fake paces its chunks: 100 ms
// of audio a chunk, the first at once and each next one 100 ms after the one before, starting
// where the request's previous timestamp says or now. A chunk covers the samples from its start
// to its end on the tone's own timeline, so consecutive chunks join without a gap even at a rate
// that does not divide into 100 ms. It ends after the chunks the duration asks for (rounded up),
// when closed, or with `fail` (its source closed).
import type { Clock } from "../../clock.js";
import type { AudioChunk, AudioStream } from "./audio.js";
import { PCM16, writePcm16Frames } from "./pcm16.js";
import { sampleIndexAt, toneSamples, type SineTone } from "./sine-tone.js";

export const CHUNK_MS = 100;
const CHUNK_NS = BigInt(CHUNK_MS) * 1_000_000n;

export interface ToneStreamOptions {
  clock: Clock;
  tone: SineTone;
  channels: number;
  /** Seconds of audio; 0 for no end. */
  durationSeconds: number;
  /** Where an earlier stream stopped; 0n to start now. */
  previousTimestampNs: bigint;
}

export interface ToneStream extends AudioStream {
  /** Ends the stream with `error`, thrown by the next `next`. */
  fail(error: Error): void;
}

/** Chunks in `seconds` of audio, rounded up; undefined for no end. A float32's last digit is not a request for one more chunk. */
export function chunksFor(seconds: number): number | undefined {
  if (seconds === 0) return undefined;
  return Math.max(1, Math.ceil(((seconds * 1000) / CHUNK_MS) * (1 - 1e-6)));
}

export function openToneStream(options: ToneStreamOptions): ToneStream {
  const { clock, tone, channels } = options;
  const startedMs = clock.now();
  const firstNs = options.previousTimestampNs > 0n ? options.previousTimestampNs : BigInt(Math.round(startedMs)) * 1_000_000n;
  const total = chunksFor(options.durationSeconds);
  let sequence = 0;
  let ended = false;
  let failure: Error | undefined;
  let timer: unknown;
  let wake: (() => void) | undefined;

  const chunk = (): AudioChunk => {
    const startNs = firstNs + BigInt(sequence) * CHUNK_NS;
    const endNs = startNs + CHUNK_NS;
    const first = sampleIndexAt(startNs, tone.sampleRateHz);
    const count = Number(sampleIndexAt(endNs, tone.sampleRateHz) - first);
    const data = writePcm16Frames(toneSamples(tone, first, count), channels);
    return { data, info: { codec: PCM16, sampleRateHz: tone.sampleRateHz, numChannels: channels }, startNs, endNs, sequence };
  };

  const stop = () => {
    ended = true;
    clock.clearTimeout(timer);
    const w = wake;
    wake = undefined;
    w?.();
  };

  return {
    async next() {
      if (failure !== undefined) throw failure;
      if (ended || (total !== undefined && sequence >= total)) return undefined;
      if (sequence > 0) {
        const wait = startedMs + sequence * CHUNK_MS - clock.now();
        if (wait > 0) await new Promise<void>((resolve) => ((wake = resolve), (timer = clock.setTimeout(resolve, wait))));
      }
      if (failure !== undefined) throw failure;
      if (ended || (total !== undefined && sequence >= total)) return undefined;
      const next = chunk();
      sequence++;
      return next;
    },
    close: stop,
    fail(error) {
      failure ??= error;
      stop();
    },
  };
}
