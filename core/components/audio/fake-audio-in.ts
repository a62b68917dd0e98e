// The fake audio in (rdk:builtin:fake), after Viam's: it offers pcm16 at `sample_rate` (44100)
// and `num_channels` (1), streaming 100 ms chunks paced in real time. Where Viam's fake sends
// silence, this one sends a tone, so a client can tell its audio arrived whole: a sine of
// `frequency_hz` (440) at `amplitude` (0.5 of full scale), the same in every channel, laid on
// the clock's timeline (see sine-tone.ts). A codec it cannot produce is refused, naming it.
// DoCommand `{"command": "streams"}` answers how many of its streams are open; anything else is
// echoed.
import type { Clock } from "../../clock.js";
import { Code, SvcError } from "../../errors/index.js";
import { formatResourceName, type ModelRegistration, type ResourceName } from "../../resource/index.js";
import { AUDIO_IN_API, FAKE_MODEL } from "../api-names.js";
import { failOnIssues, readAttributes, type Parsed } from "../attributes.js";
import type { AudioIn } from "./audio.js";
import { audioFormatSchema, readAudioFormat, type AudioFormatAttributes } from "./audio-attributes.js";
import { PCM16 } from "./pcm16.js";
import type { SineTone } from "./sine-tone.js";
import { openToneStream, type ToneStream } from "./tone-stream.js";

const DEFAULT_FREQUENCY_HZ = 440;
const DEFAULT_AMPLITUDE = 0.5;

export interface FakeAudioInAttributes extends AudioFormatAttributes {
  frequencyHz: number;
  amplitude: number;
}

export function readFakeAudioInAttributes(attributes: Record<string, unknown> | undefined, path: string): Parsed<FakeAudioInAttributes> {
  const a = readAttributes(attributes, path);
  const format = readAudioFormat(a);
  let frequencyHz = a.number("frequency_hz", { positive: true, default: DEFAULT_FREQUENCY_HZ })!;
  // Above half the sample rate a sine folds back to a lower one: not the tone asked for.
  if (frequencyHz > format.sampleRateHz / 2) {
    a.problem("frequency_hz", `must be at most half the sample rate (${format.sampleRateHz / 2} Hz at ${format.sampleRateHz} Hz)`);
    frequencyHz = DEFAULT_FREQUENCY_HZ;
  }
  const amplitude = a.number("amplitude", { min: 0, max: 1, default: DEFAULT_AMPLITUDE })!;
  return { value: { ...format, frequencyHz, amplitude }, issues: a.issues };
}

function createFakeAudioIn(name: ResourceName, clock: Clock, attributes: FakeAudioInAttributes): AudioIn {
  const fullName = formatResourceName(name);
  const tone: SineTone = { frequencyHz: attributes.frequencyHz, sampleRateHz: attributes.sampleRateHz, amplitude: attributes.amplitude };
  const open = new Set<ToneStream>();
  return {
    name,
    async properties() {
      return { supportedCodecs: [PCM16], sampleRateHz: attributes.sampleRateHz, numChannels: attributes.numChannels };
    },
    audio(request) {
      if (request.codec !== "" && request.codec !== PCM16) {
        throw new SvcError(Code.InvalidArgument, `codec: ${fullName} cannot produce ${JSON.stringify(request.codec)} (it offers ${PCM16})`);
      }
      const stream = openToneStream({ clock, tone, channels: attributes.numChannels, durationSeconds: request.durationSeconds, previousTimestampNs: request.previousTimestampNs });
      open.add(stream);
      return {
        next: stream.next,
        close() {
          open.delete(stream);
          stream.close();
        },
      };
    },
    async doCommand(command) {
      if (command.command === "streams") return { streams: open.size };
      return command;
    },
    async close() {
      for (const stream of open) stream.fail(new SvcError(Code.Unavailable, `${fullName} closed`));
      open.clear();
    },
  };
}

export const fakeAudioInModel: ModelRegistration<AudioIn> = {
  api: AUDIO_IN_API,
  model: FAKE_MODEL,
  attributesSchema: {
    type: "object",
    properties: {
      ...audioFormatSchema,
      frequency_hz: { type: "number", exclusiveMinimum: 0, default: DEFAULT_FREQUENCY_HZ, description: "the tone's frequency; at most half the sample rate" },
      amplitude: { type: "number", minimum: 0, maximum: 1, default: DEFAULT_AMPLITUDE, description: "the tone's amplitude, of full scale" },
    },
  },
  validate(config, path) {
    return { issues: readFakeAudioInAttributes(config.attributes, path).issues };
  },
  async build(ctx) {
    const { value, issues } = readFakeAudioInAttributes(ctx.config.attributes, formatResourceName(ctx.name));
    failOnIssues(issues);
    return createFakeAudioIn(ctx.name, ctx.clock, value);
  },
};
