// The fake audio in and audio out as models, on a manual clock: the tone's chunks come one a
// 100 ms of the clock, the first at once, as many as the duration asks for (rounded up, a
// float32's last digit not counting); a closed stream or a closed source ends a waiting read;
// the tone is a sine on time since the epoch, exact for today's sample counts; the fake audio out
// answers a play once the audio's length has passed on the clock.
import { afterEach, describe, expect, it } from "vitest";
import { chunksFor, fakeAudioInModel, fakeAudioOutModel, sampleIndexAt, toneSample, type AudioIn, type AudioOut } from "../../core/components/audio/index.js";
import { Code } from "../../core/errors/index.js";
import { createTestMachine, entry, type TestMachine } from "./test-machine.js";

let machine: TestMachine;
afterEach(() => machine?.closeAll());

const models = { models: [fakeAudioInModel, fakeAudioOutModel] } as Parameters<typeof createTestMachine>[1];
const request = (durationSeconds: number, previousTimestampNs = 0n) => ({ codec: "pcm16", durationSeconds, previousTimestampNs });

/** Whether `promise` has settled once pending callbacks have run. */
async function settled(promise: Promise<unknown>): Promise<boolean> {
  let done = false;
  void promise.then(
    () => (done = true),
    () => (done = true),
  );
  for (let i = 0; i < 10; i++) await Promise.resolve();
  return done;
}

describe("the fake audio in's stream", () => {
  it("gives a chunk at once, then one each 100 ms of the clock, and ends after the duration", async () => {
    machine = createTestMachine({}, models);
    const mic = await machine.build<AudioIn>(entry("audio_in", "mic", { sample_rate: 8000 }));
    const stream = mic.audio(request(0.25));
    const first = await stream.next();
    expect(first?.sequence).toBe(0);
    expect(first?.startNs).toBe(1_000n * 1_000_000n);

    const second = stream.next();
    machine.clock.advance(99);
    expect(await settled(second)).toBe(false);
    machine.clock.advance(1);
    expect((await second)?.sequence).toBe(1);

    machine.clock.advance(100);
    expect((await stream.next())?.sequence).toBe(2);
    // 0.25 s is three chunks; the end needs no more waiting.
    expect(await settled(stream.next())).toBe(true);
    expect(await stream.next()).toBeUndefined();
  });

  it("rounds durations up to whole chunks, and a float32's last digit is not one more", () => {
    expect(chunksFor(0)).toBeUndefined();
    expect(chunksFor(Math.fround(0.3))).toBe(3);
    expect(chunksFor(0.25)).toBe(3);
    expect(chunksFor(0.01)).toBe(1);
    expect(chunksFor(2)).toBe(20);
  });

  it("starts at the previous timestamp when given, its chunks joining end to start", async () => {
    machine = createTestMachine({}, models);
    const mic = await machine.build<AudioIn>(entry("audio_in", "mic", { sample_rate: 22050 }));
    const stream = mic.audio(request(0.2, 123_456_789n));
    const a = (await stream.next())!;
    machine.clock.advance(100);
    const b = (await stream.next())!;
    expect([a.startNs, a.endNs, b.startNs]).toEqual([123_456_789n, 223_456_789n, 223_456_789n]);
    // 2205 frames of 100 ms at 22050 Hz, however the boundaries fall.
    expect(a.data.byteLength + b.data.byteLength).toBe(Number(sampleIndexAt(323_456_789n, 22050) - sampleIndexAt(123_456_789n, 22050)) * 2);
  });

  it("ends a read waiting for its chunk when the client closes the stream, and fails it when the source closes", async () => {
    machine = createTestMachine({}, models);
    const mic = await machine.build<AudioIn>(entry("audio_in", "mic"));
    const left = mic.audio(request(0));
    await left.next();
    const waiting = left.next();
    expect(await mic.doCommand({ command: "streams" })).toEqual({ streams: 1 });
    left.close();
    expect(await waiting).toBeUndefined();
    expect(await mic.doCommand({ command: "streams" })).toEqual({ streams: 0 });

    const cut = mic.audio(request(0));
    await cut.next();
    const pending = cut.next();
    await mic.close!();
    await expect(pending).rejects.toMatchObject({ code: Code.Unavailable, message: "rdk:component:audio_in/mic closed" });
  });

  it("refuses a codec it cannot produce, naming it", async () => {
    machine = createTestMachine({}, models);
    const mic = await machine.build<AudioIn>(entry("audio_in", "mic"));
    expect(() => mic.audio({ ...request(1), codec: "opus" })).toThrow(expect.objectContaining({ code: Code.InvalidArgument, message: 'codec: rdk:component:audio_in/mic cannot produce "opus" (it offers pcm16)' }));
  });
});

describe("the tone", () => {
  const tone = { frequencyHz: 440.3, sampleRateHz: 48000, amplitude: 1 };

  /** The fraction of a cycle at sample n, worked out exactly from the frequency's binary value. */
  function exactCycleFraction(n: bigint): number {
    const scale = 2n ** 52n;
    const numerator = BigInt(tone.frequencyHz * 2 ** 52) * n;
    const denominator = scale * BigInt(tone.sampleRateHz);
    return Number(numerator % denominator) / Number(denominator);
  }

  it("is the sine of its frequency at each sample's time, to the sample's last bit at today's sample counts", () => {
    // Around 2027 at 48 kHz: 8.6e13 samples, where f x n in floating point is off by 1e-4 cycles.
    for (const n of [0n, 1n, 12_345n, 86_400_000_047_999n, 86_400_048_012_345n, 86_401_234_567_891n]) {
      const expected = Math.round(32767 * Math.sin(2 * Math.PI * exactCycleFraction(n)));
      expect(Math.abs(toneSample(tone, n) - expected), String(n)).toBeLessThanOrEqual(1);
    }
  });
});

describe("the fake audio out", () => {
  it("answers a play once the audio's length has passed on the clock, and keeps it", async () => {
    machine = createTestMachine({}, models);
    const speaker = await machine.build<AudioOut>(entry("audio_out", "speaker"));
    const data = new Uint8Array([0, 0, 0x10, 0x00, 0xf0, 0xff, 0, 0]);
    const playing = speaker.play(data, { codec: "pcm16", sampleRateHz: 1000, numChannels: 1 });
    machine.clock.advance(3);
    expect(await settled(playing)).toBe(false);
    machine.clock.advance(1);
    await playing;
    expect(await speaker.doCommand({ command: "played" })).toEqual({
      played: [{ codec: "pcm16", sample_rate_hz: 1000, num_channels: 1, bytes: 8, frames: 4, duration_sec: 0.004, peak: 16 }],
    });
  });

  it("ends a play in progress when it closes", async () => {
    machine = createTestMachine({}, models);
    const speaker = await machine.build<AudioOut>(entry("audio_out", "speaker"));
    const playing = speaker.play(new Uint8Array(2000), { codec: "pcm16", sampleRateHz: 1000, numChannels: 1 });
    await speaker.close!();
    expect(await settled(playing)).toBe(true);
  });
});
