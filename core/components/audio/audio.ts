// The audio in and audio out APIs: a source of sound streamed as chunks of encoded audio, and a
// sink given encoded audio to play. Both describe themselves the same way (codecs, sample rate,
// channels). Times are nanoseconds since the epoch, as bigint: they pass 2^53.
import type { Commandable, Extra } from "../apis/commandable.js";

/** How a stretch of audio is encoded. PCM is interleaved across channels. */
export interface AudioInfo {
  codec: string;
  sampleRateHz: number;
  numChannels: number;
}

export interface AudioProperties {
  supportedCodecs: string[];
  sampleRateHz: number;
  /** The most channels it takes or gives. */
  numChannels: number;
}

export interface AudioChunk {
  data: Uint8Array;
  info: AudioInfo;
  startNs: bigint;
  endNs: bigint;
  /** Counts the chunks of one stream from 0. */
  sequence: number;
}

export interface AudioRequest {
  /** The encoding wanted; "" leaves it to the source. */
  codec: string;
  /** Seconds of audio wanted; 0 for no end. */
  durationSeconds: number;
  /** Where an earlier stream stopped, to continue from there; 0n for now. */
  previousTimestampNs: bigint;
  extra?: Extra;
}

/** One stream of audio: chunks in order, each when it is due. */
export interface AudioStream {
  /** The next chunk, once it is due; undefined when the stream has ended (its duration, or closed). */
  next(): Promise<AudioChunk | undefined>;
  /** Ends the stream: a waiting `next` answers undefined. */
  close(): void;
}

export interface AudioIn extends Commandable {
  properties(extra?: Extra): Promise<AudioProperties>;
  /** Starts a stream; a request it cannot serve (a codec it cannot produce) throws here. */
  audio(request: AudioRequest): AudioStream;
}

export interface AudioOut extends Commandable {
  properties(extra?: Extra): Promise<AudioProperties>;
  /** Plays `data`, answering once it has been played. */
  play(data: Uint8Array, info: AudioInfo | undefined, extra?: Extra): Promise<void>;
}
