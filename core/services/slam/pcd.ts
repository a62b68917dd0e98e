// Point clouds as PCD files the way Viam's services write them: fields x y z (float32, metres)
// and rgb (a packed 0xRRGGBB integer whose blue is the point's confidence, 1 to 100), binary,
// little endian.

/** ASCII text as bytes (a PCD header, a JSON document of numbers and plain keys). */
export function asciiBytes(text: string): Uint8Array {
  const bytes = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) bytes[i] = text.charCodeAt(i) & 0x7f;
  return bytes;
}

export interface CloudPoint {
  /** Metres. */
  x: number;
  y: number;
  z: number;
  /** 1 to 100, carried in the blue of rgb. */
  confidence: number;
}

const BYTES_PER_POINT = 16;

/** A cloud of `count` points, `pointAt(i)` giving each. */
export function encodePcd(count: number, pointAt: (i: number) => CloudPoint): Uint8Array {
  const header = asciiBytes(
    [
      "VERSION .7",
      "FIELDS x y z rgb",
      "SIZE 4 4 4 4",
      "TYPE F F F I",
      "COUNT 1 1 1 1",
      `WIDTH ${count}`,
      "HEIGHT 1",
      "VIEWPOINT 0 0 0 1 0 0 0",
      `POINTS ${count}`,
      "DATA binary",
      "",
    ].join("\n"),
  );
  const bytes = new Uint8Array(header.length + count * BYTES_PER_POINT);
  bytes.set(header, 0);
  const view = new DataView(bytes.buffer, header.length);
  for (let i = 0; i < count; i++) {
    const p = pointAt(i);
    const at = i * BYTES_PER_POINT;
    view.setFloat32(at, p.x, true);
    view.setFloat32(at + 4, p.y, true);
    view.setFloat32(at + 8, p.z, true);
    view.setUint32(at + 12, Math.max(1, Math.min(100, Math.round(p.confidence))), true);
  }
  return bytes;
}
