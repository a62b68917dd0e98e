// Public face of core/components/audio: the audio in and audio out APIs, served by svc-server
// only, platform-neutral but kept out of the MCU's core: their interfaces, PCM16, the tone the
// fake audio in plays and both fakes (their handlers are core/rpc/components/audio-*-service.ts).
export type { AudioChunk, AudioIn, AudioInfo, AudioOut, AudioProperties, AudioRequest, AudioStream } from "./audio.js";
export { PCM16, pcm16FrameBytes, pcm16Peak, writePcm16Frames } from "./pcm16.js";
export { sampleIndexAt, toneSample, toneSamples, type SineTone } from "./sine-tone.js";
export { CHUNK_MS, chunksFor, openToneStream, type ToneStream, type ToneStreamOptions } from "./tone-stream.js";
export { fakeAudioInModel, readFakeAudioInAttributes, type FakeAudioInAttributes } from "./fake-audio-in.js";
export { fakeAudioOutModel, readFakeAudioOutAttributes, type PlayedAudio } from "./fake-audio-out.js";
