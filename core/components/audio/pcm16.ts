// PCM16: signed 16-bit samples, little endian, channels interleaved. The only codec the fakes
// speak; what a frame is and where a sample sits.

export const PCM16 = "pcm16";
export const PCM16_MAX = 32767;
const BYTES_PER_SAMPLE = 2;

/** Bytes in one frame: one sample of every channel. */
export function pcm16FrameBytes(channels: number): number {
  return BYTES_PER_SAMPLE * channels;
}

/** Frames of `channels` channels given, one value each (written to every channel). */
export function writePcm16Frames(values: readonly number[], channels: number): Uint8Array {
  const bytes = new Uint8Array(values.length * pcm16FrameBytes(channels));
  const view = new DataView(bytes.buffer);
  values.forEach((value, frame) => {
    for (let channel = 0; channel < channels; channel++) view.setInt16((frame * channels + channel) * BYTES_PER_SAMPLE, value, true);
  });
  return bytes;
}

/** The largest magnitude of any sample in `data` (a whole number of samples). */
export function pcm16Peak(data: Uint8Array): number {
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  let peak = 0;
  for (let at = 0; at + BYTES_PER_SAMPLE <= data.byteLength; at += BYTES_PER_SAMPLE) peak = Math.max(peak, Math.abs(view.getInt16(at, true)));
  return peak;
}
