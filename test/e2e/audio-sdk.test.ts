// The audio in and audio out APIs on the real svc-server, through the official SDK's
// AudioInClient and AudioOutClient: the fake audio in offers pcm16 at its configured rate and
// channels and streams a sine tone in 100 ms chunks, numbered and timed, for the duration asked
// for or until the client leaves; the fake audio out plays pcm16 for as long as it lasts and
// keeps what it played. Requests they cannot serve are INVALID_ARGUMENT naming the field; bad
// attributes keep the component from being built, with their path.
import * as VIAM from "@viamrobotics/sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eventually } from "../helpers/eventually.js";
import { dialSdk, fullName } from "../helpers/sdk-robot.js";
import { startSvcServer, type SvcServerProcess } from "../helpers/svc-server-process.js";

const AUDIO_IN = "rdk:component:audio_in";
const AUDIO_OUT = "rdk:component:audio_out";
// 1 kHz at 8 kHz: eight samples a cycle, so sample n is amplitude x sin(n x 45 degrees).
const tone = { name: "tone", api: AUDIO_IN, model: "fake", attributes: { sample_rate: 8000, num_channels: 2, frequency_hz: 1000, amplitude: 0.25 } };
const config = {
  components: [
    tone,
    // As Viam's fake configuration writes them: no attributes.
    { name: "audio_in1", type: "audio_in", model: "fake" },
    { name: "audio_out1", type: "audio_out", model: "fake" },
    { name: "loud", type: "audio_in", model: "fake", attributes: { sample_rate: 8000, frequency_hz: 5000, amplitude: 2 } },
  ],
};

let server: SvcServerProcess;
let robot: VIAM.RobotClient;

beforeAll(async () => {
  server = await startSvcServer(config);
  robot = await dialSdk(server.sdkHost);
});

afterAll(async () => {
  await robot?.disconnect();
  await server?.stop();
});

const mic = (name = "tone") => new VIAM.AudioInClient(robot, name);
const speaker = (name = "audio_out1") => new VIAM.AudioOutClient(robot, name);

async function collect(stream: AsyncIterable<VIAM.AudioChunk>): Promise<VIAM.AudioChunk[]> {
  const chunks: VIAM.AudioChunk[] = [];
  for await (const chunk of stream) chunks.push(chunk);
  return chunks;
}

/** The first interleaved channel's samples of a PCM16 chunk. */
function leftSamples(data: Uint8Array, channels: number): number[] {
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  const samples: number[] = [];
  for (let at = 0; at < data.byteLength; at += 2 * channels) samples.push(view.getInt16(at, true));
  return samples;
}

/** Sample n of the 1 kHz tone at 8 kHz, amplitude 0.25: the tone is laid on time since the epoch. */
const expected = (n: bigint) => Math.round(0.25 * 32767 * Math.sin((Number(n % 8n) * Math.PI) / 4));

async function failure(run: () => Promise<unknown>): Promise<{ code?: unknown; message?: string }> {
  try {
    await run();
  } catch (error) {
    return error as { code?: unknown; message?: string };
  }
  throw new Error("it did not fail");
}

describe("the audio in and audio out APIs", () => {
  it("build the fakes to READY, list both services, and name a refused attribute", async () => {
    const status = await robot.getMachineStatus();
    const byName = new Map(status.resources.map((r) => [fullName(r.name!), r]));
    for (const name of [`${AUDIO_IN}/tone`, `${AUDIO_IN}/audio_in1`, `${AUDIO_OUT}/audio_out1`]) {
      expect(byName.get(name)?.state, name).toBe(VIAM.robotApi.ResourceStatus_State.READY);
    }
    const loud = byName.get(`${AUDIO_IN}/loud`);
    expect(loud?.state).not.toBe(VIAM.robotApi.ResourceStatus_State.READY);
    expect(loud?.error).toContain("components[3].attributes.amplitude: must be at most 1");
    expect(loud?.error).toContain("components[3].attributes.frequency_hz: must be at most half the sample rate (4000 Hz at 8000 Hz)");
    const subtypes = (await robot.resourceRPCSubtypes()).map((s) => `${s.subtype?.namespace}:${s.subtype?.type}:${s.subtype?.subtype} ${s.protoService}`);
    expect(subtypes).toContain(`${AUDIO_IN} viam.component.audioin.v1.AudioInService`);
    expect(subtypes).toContain(`${AUDIO_OUT} viam.component.audioout.v1.AudioOutService`);
  });

  it("report Viam's fakes' properties, or those configured", async () => {
    expect(await mic("audio_in1").getProperties()).toEqual({ supportedCodecs: ["pcm16"], sampleRateHz: 44100, numChannels: 1 });
    expect(await mic().getProperties()).toEqual({ supportedCodecs: ["pcm16"], sampleRateHz: 8000, numChannels: 2 });
    expect(await speaker().getProperties()).toEqual({ supportedCodecs: ["pcm16"], sampleRateHz: 44100, numChannels: 1 });
  });

  it("answer NOT_FOUND for a component not configured, no geometries, and DoCommand", async () => {
    await expect(mic("nope").getProperties()).rejects.toMatchObject({ code: VIAM.Code.NotFound });
    await expect(speaker("nope").play(new Uint8Array(2), new VIAM.commonApi.AudioInfo({ codec: "pcm16", sampleRateHz: 8000, numChannels: 1 }))).rejects.toMatchObject({
      code: VIAM.Code.NotFound,
    });
    expect(await mic().doCommand(VIAM.Struct.fromJson({ hello: 1 }))).toEqual({ hello: 1 });
    expect(await speaker().doCommand(VIAM.Struct.fromJson({ hello: 2 }))).toEqual({ hello: 2 });
  });
});

describe("the fake audio in", () => {
  it("streams the sine asked for, in numbered 100 ms chunks that join end to start, for the duration asked for", async () => {
    const chunks = await collect(mic().getAudio("pcm16", 0.3));
    expect(chunks.map((c) => c.sequence)).toEqual([0, 1, 2]);
    for (const chunk of chunks) {
      expect(chunk.audioInfo).toMatchObject({ codec: "pcm16", sampleRateHz: 8000, numChannels: 2 });
      expect(chunk.endTimeNs - chunk.startTimeNs).toBe(100_000_000n);
      // 800 frames of two channels of two bytes, both channels the same.
      expect(chunk.audioData.byteLength).toBe(800 * 2 * 2);
      expect(leftSamples(chunk.audioData.subarray(2), 2)).toEqual(leftSamples(chunk.audioData, 2));
      const first = (chunk.startTimeNs * 8000n) / 1_000_000_000n;
      const samples = leftSamples(chunk.audioData, 2);
      for (const k of [0, 1, 2, 3, 4, 5, 6, 7, 401, 799]) expect(samples[k], `sample ${k} of chunk ${chunk.sequence}`).toBe(expected(first + BigInt(k)));
      expect(Math.max(...samples)).toBe(Math.round(0.25 * 32767));
    }
    expect(chunks[1]!.startTimeNs).toBe(chunks[0]!.endTimeNs);
    expect(chunks[2]!.startTimeNs).toBe(chunks[1]!.endTimeNs);
    const now = BigInt(Date.now()) * 1_000_000n;
    expect(chunks[0]!.startTimeNs).toBeLessThanOrEqual(now);
    expect(chunks[0]!.startTimeNs).toBeGreaterThan(now - 60_000_000_000n);
  });

  it("rounds a duration up to whole chunks, and takes pcm16 when no codec is named", async () => {
    const chunks = await collect(mic().getAudio("", 0.15));
    expect(chunks.map((c) => [c.sequence, c.audioInfo?.codec])).toEqual([
      [0, "pcm16"],
      [1, "pcm16"],
    ]);
  });

  it("continues from a previous timestamp, its wave unbroken", async () => {
    const [last] = await collect(mic().getAudio("pcm16", 0.1));
    const [next] = await collect(mic().getAudio("pcm16", 0.1, last!.endTimeNs));
    expect(next!.startTimeNs).toBe(last!.endTimeNs);
    const joined = [...leftSamples(last!.audioData, 2), ...leftSamples(next!.audioData, 2)];
    const first = (last!.startTimeNs * 8000n) / 1_000_000_000n;
    expect(joined).toEqual(joined.map((_, k) => expected(first + BigInt(k))));
  });

  it("streams without end until the client leaves, and then closes the stream", async () => {
    const leave = new AbortController();
    const seen: number[] = [];
    const open = async () => ((await mic("audio_in1").doCommand(VIAM.Struct.fromJson({ command: "streams" }))) as { streams: number }).streams;
    try {
      for await (const chunk of mic("audio_in1").getAudio("pcm16", 0, 0n, {}, { signal: leave.signal })) {
        seen.push(chunk.sequence);
        // 44.1 kHz mono: 4410 frames of 2 bytes.
        expect(chunk.audioData.byteLength).toBe(4410 * 2);
        if (seen.length === 1) expect(await open()).toBe(1);
        if (seen.length === 4) leave.abort();
      }
    } catch (error) {
      expect(leave.signal.aborted, String(error)).toBe(true);
    }
    expect(seen).toEqual([0, 1, 2, 3]);
    await eventually(async () => ((await open()) === 0 ? true : undefined), "the stream closed on the server");
  });

  it("answers INVALID_ARGUMENT naming the codec it cannot produce, or a negative duration", async () => {
    expect(await failure(() => collect(mic().getAudio("mp3", 1)))).toMatchObject({
      code: VIAM.Code.InvalidArgument,
      message: expect.stringContaining(`codec: ${AUDIO_IN}/tone cannot produce "mp3" (it offers pcm16)`),
    });
    expect(await failure(() => collect(mic().getAudio("pcm16", -1)))).toMatchObject({
      code: VIAM.Code.InvalidArgument,
      message: expect.stringContaining("duration_seconds: must be 0 (no end) or more, not -1"),
    });
  });
});

describe("the fake audio out", () => {
  const info = (codec: string, sampleRateHz: number, numChannels: number) => new VIAM.commonApi.AudioInfo({ codec, sampleRateHz, numChannels });

  it("plays the pcm16 it is given and keeps what it played", async () => {
    const [chunk] = await collect(mic().getAudio("pcm16", 0.1));
    await speaker().play(chunk!.audioData, chunk!.audioInfo);
    const quiet = new Uint8Array(441 * 2);
    await speaker().play(quiet, info("pcm16", 44100, 1));
    const { played } = (await speaker().doCommand(VIAM.Struct.fromJson({ command: "played" }))) as { played: unknown[] };
    expect(played.slice(-2)).toEqual([
      { codec: "pcm16", sample_rate_hz: 8000, num_channels: 2, bytes: 3200, frames: 800, duration_sec: 0.1, peak: Math.round(0.25 * 32767) },
      { codec: "pcm16", sample_rate_hz: 44100, num_channels: 1, bytes: 882, frames: 441, duration_sec: 0.01, peak: 0 },
    ]);
  });

  it("answers INVALID_ARGUMENT naming the field for what it cannot play", async () => {
    const refused = async (data: Uint8Array, audioInfo?: VIAM.commonApi.AudioInfo) => failure(() => speaker().play(data, audioInfo));
    const two = new Uint8Array(4);
    const cases: Array<[Promise<{ code?: unknown; message?: string }>, string]> = [
      [refused(new Uint8Array(0), info("pcm16", 8000, 1)), "audio_data: no audio given"],
      [refused(two), "audio_info: required"],
      [refused(two, info("mp3", 8000, 1)), `audio_info.codec: ${AUDIO_OUT}/audio_out1 cannot play "mp3" (it plays pcm16)`],
      [refused(two, info("pcm16", 0, 1)), "audio_info.sample_rate_hz: must be greater than 0"],
      [refused(two, info("pcm16", 8000, 0)), "audio_info.num_channels: must be greater than 0"],
      [refused(new Uint8Array(6), info("pcm16", 8000, 2)), "audio_data: 6 bytes is not a whole number of 4-byte frames"],
    ];
    for (const [answer, message] of cases) expect(await answer).toMatchObject({ code: VIAM.Code.InvalidArgument, message: expect.stringContaining(message) });
  });
});
