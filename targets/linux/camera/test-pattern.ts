// A test pattern a person recognises at a glance: eight vertical colour bars (white, yellow,
// cyan, green, magenta, red, blue, black) over the top three quarters, a grey ramp below.
const BARS: ReadonlyArray<readonly [number, number, number]> = [
  [255, 255, 255],
  [255, 255, 0],
  [0, 255, 255],
  [0, 255, 0],
  [255, 0, 255],
  [255, 0, 0],
  [0, 0, 255],
  [0, 0, 0],
];

/** The pattern's pixels, RGB, row by row. */
export function colourBars(width: number, height: number): Uint8Array {
  const rgb = new Uint8Array(width * height * 3);
  const barsEnd = Math.ceil((height * 3) / 4);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const at = (y * width + x) * 3;
      if (y < barsEnd) {
        rgb.set(BARS[Math.min(BARS.length - 1, Math.floor((x * BARS.length) / width))]!, at);
      } else {
        const grey = width > 1 ? Math.round((x * 255) / (width - 1)) : 0;
        rgb.fill(grey, at, at + 3);
      }
    }
  }
  return rgb;
}
