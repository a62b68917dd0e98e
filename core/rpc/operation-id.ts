// Ids of operations and sessions: random version-4 UUIDs, the shape clients of the Viam API
// expect. The randomness is passed in: the host's strong generator on Linux, whatever the board
// offers on the MCU, a seeded one in tests.

/** A version-4 UUID made of 16 bytes drawn from `random` (a number in [0, 1) per call). */
export function uuidFrom(random: () => number): string {
  let text = "";
  for (let i = 0; i < 16; i++) {
    let byte = Math.floor(random() * 256) & 0xff;
    if (i === 6) byte = (byte & 0x0f) | 0x40;
    if (i === 8) byte = (byte & 0x3f) | 0x80;
    if (i === 4 || i === 6 || i === 8 || i === 10) text += "-";
    text += (byte < 16 ? "0" : "") + byte.toString(16);
  }
  return text;
}
