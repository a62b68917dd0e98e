// The fake audio out (rdk:builtin:fake), after Viam's: it plays pcm16 (44100 Hz, mono by its
// properties; `sample_rate` and `num_channels` change what it reports) by taking as long as the
// audio lasts on the clock, then answering. It refuses what Viam's refuses (no audio, no audio
// info, another codec, no sample rate or channels) and PCM cut mid-frame, each naming the field,
// and keeps what it played: DoCommand `{"command": "played"}` answers the last plays, newest
// last, each with its format, size, length and loudest sample; anything else is echoed.
import type { Clock } from "../../clock.js";
import { Code, SvcError } from "../../errors/index.js";
import { formatResourceName, type ModelRegistration, type ResourceName } from "../../resource/index.js";
import { AUDIO_OUT_API, FAKE_MODEL } from "../api-names.js";
import { failOnIssues, readAttributes, type Parsed } from "../attributes.js";
import type { AudioInfo, AudioOut } from "./audio.js";
import { audioFormatSchema, readAudioFormat, type AudioFormatAttributes } from "./audio-attributes.js";
import { PCM16, pcm16FrameBytes, pcm16Peak } from "./pcm16.js";

// Enough to check what a client played, bounded however long the machine runs.
const KEPT_PLAYS = 100;

export interface PlayedAudio {
  codec: string;
  sample_rate_hz: number;
  num_channels: number;
  bytes: number;
  frames: number;
  duration_sec: number;
  /** The largest magnitude of any sample. */
  peak: number;
}

export function readFakeAudioOutAttributes(attributes: Record<string, unknown> | undefined, path: string): Parsed<AudioFormatAttributes> {
  const a = readAttributes(attributes, path);
  return { value: readAudioFormat(a), issues: a.issues };
}

function invalid(field: string, problem: string): SvcError {
  return new SvcError(Code.InvalidArgument, `${field}: ${problem}`);
}

/** What playing `data` as `info` means, or the reason it cannot be played. */
function playable(fullName: string, data: Uint8Array, info: AudioInfo | undefined): PlayedAudio {
  if (data.byteLength === 0) throw invalid("audio_data", "no audio given");
  if (info === undefined) throw invalid("audio_info", "required: the codec, sample rate and channels of audio_data");
  if (info.codec !== PCM16) throw invalid("audio_info.codec", `${fullName} cannot play ${JSON.stringify(info.codec)} (it plays ${PCM16})`);
  if (!(info.sampleRateHz > 0)) throw invalid("audio_info.sample_rate_hz", "must be greater than 0");
  if (!(info.numChannels > 0)) throw invalid("audio_info.num_channels", "must be greater than 0");
  const frameBytes = pcm16FrameBytes(info.numChannels);
  if (data.byteLength % frameBytes !== 0) {
    throw invalid("audio_data", `${data.byteLength} bytes is not a whole number of ${frameBytes}-byte frames (${info.numChannels} channel(s) of 16 bits)`);
  }
  const frames = data.byteLength / frameBytes;
  return {
    codec: info.codec,
    sample_rate_hz: info.sampleRateHz,
    num_channels: info.numChannels,
    bytes: data.byteLength,
    frames,
    duration_sec: frames / info.sampleRateHz,
    peak: pcm16Peak(data),
  };
}

function createFakeAudioOut(name: ResourceName, clock: Clock, format: AudioFormatAttributes): AudioOut {
  const fullName = formatResourceName(name);
  const played: PlayedAudio[] = [];
  const playing = new Map<unknown, () => void>();

  // The time the audio lasts; a close cuts it short.
  const last = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = clock.setTimeout(() => {
        playing.delete(timer);
        resolve();
      }, ms);
      playing.set(timer, resolve);
    });

  return {
    name,
    async properties() {
      return { supportedCodecs: [PCM16], sampleRateHz: format.sampleRateHz, numChannels: format.numChannels };
    },
    async play(data, info) {
      const audio = playable(fullName, data, info);
      await last(audio.duration_sec * 1000);
      played.push(audio);
      if (played.length > KEPT_PLAYS) played.shift();
    },
    async doCommand(command) {
      if (command.command === "played") return { played: played.map((p) => ({ ...p })) };
      return command;
    },
    async close() {
      for (const [timer, resolve] of playing) {
        clock.clearTimeout(timer);
        resolve();
      }
      playing.clear();
    },
  };
}

export const fakeAudioOutModel: ModelRegistration<AudioOut> = {
  api: AUDIO_OUT_API,
  model: FAKE_MODEL,
  attributesSchema: { type: "object", properties: { ...audioFormatSchema } },
  validate(config, path) {
    return { issues: readFakeAudioOutAttributes(config.attributes, path).issues };
  },
  async build(ctx) {
    const { value, issues } = readFakeAudioOutAttributes(ctx.config.attributes, formatResourceName(ctx.name));
    failOnIssues(issues);
    return createFakeAudioOut(ctx.name, ctx.clock, value);
  },
};
