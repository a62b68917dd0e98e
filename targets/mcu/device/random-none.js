// No secure random bytes on this platform: Moddable's Math.random here is the C library's rand(),
// which anyone can predict. Without a source the device refuses configurations with API keys
// rather than hand out guessable tokens; a native module reading the chip's generator (the
// RP2040's ring oscillator through pico_rand) can be mapped to "svc-random" instead.
export default undefined;
