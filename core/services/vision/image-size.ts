// The size of an encoded image read from its header, without decoding it: PNG's IHDR chunk and
// JPEG's start-of-frame segment. Anything else has no size we can tell.

export interface ImageSize {
  width: number;
  height: number;
}

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

function uint16(bytes: Uint8Array, at: number): number {
  return (bytes[at]! << 8) | bytes[at + 1]!;
}

function uint32(bytes: Uint8Array, at: number): number {
  return ((bytes[at]! << 24) | (bytes[at + 1]! << 16) | (bytes[at + 2]! << 8) | bytes[at + 3]!) >>> 0;
}

function pngSize(bytes: Uint8Array): ImageSize | undefined {
  if (bytes.length < 24 || PNG_SIGNATURE.some((b, i) => bytes[i] !== b)) return undefined;
  // The first chunk is IHDR: length, type, then width and height.
  if (String.fromCharCode(bytes[12]!, bytes[13]!, bytes[14]!, bytes[15]!) !== "IHDR") return undefined;
  return { width: uint32(bytes, 16), height: uint32(bytes, 20) };
}

// Start-of-frame markers: 0xC0 to 0xCF but for DHT (C4), JPG (C8) and DAC (CC).
const isStartOfFrame = (marker: number) => marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;
// Markers that stand alone, with no length after them: TEM, RST0 to RST7, SOI.
const standsAlone = (marker: number) => marker === 0x01 || (marker >= 0xd0 && marker <= 0xd8);

function jpegSize(bytes: Uint8Array): ImageSize | undefined {
  if (bytes.length < 4 || bytes[0] !== 0xff || bytes[1] !== 0xd8) return undefined;
  let at = 2;
  while (at + 3 < bytes.length) {
    if (bytes[at] !== 0xff) return undefined;
    const marker = bytes[at + 1]!;
    if (marker === 0xff) {
      at++; // fill byte
      continue;
    }
    if (standsAlone(marker)) {
      at += 2;
      continue;
    }
    // The image data follows start-of-scan: a frame header after it would be a broken file.
    if (marker === 0xda || marker === 0xd9) return undefined;
    const length = uint16(bytes, at + 2);
    if (isStartOfFrame(marker)) {
      if (at + 9 > bytes.length || length < 7) return undefined;
      return { height: uint16(bytes, at + 5), width: uint16(bytes, at + 7) };
    }
    at += 2 + length;
  }
  return undefined;
}

/** The image's size from its PNG or JPEG header, or undefined. */
export function imageSize(bytes: Uint8Array): ImageSize | undefined {
  const size = pngSize(bytes) ?? jpegSize(bytes);
  return size !== undefined && size.width > 0 && size.height > 0 ? size : undefined;
}
