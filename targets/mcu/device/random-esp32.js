// Secure random bytes on an ESP32: XS's Math.random there reads esp_random(), the hardware
// generator, which gives true random numbers while the radio is on (it is: the device serves
// over Wi-Fi). Each byte takes the top 8 of the 31 bits one call gives.
export default function randomBytes(count) {
  const out = new Uint8Array(count);
  for (let i = 0; i < count; i++) out[i] = Math.floor(Math.random() * 256);
  return out;
}
