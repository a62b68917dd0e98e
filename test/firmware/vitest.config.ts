// npm run test:firmware: the firmware built by the Moddable SDK (and the pico-sdk), kept out of
// `npm test` because it needs both SDKs set up ($MODDABLE, $PICO_SDK_PATH; docs/mcu.md) and
// minutes of C compiling.
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/firmware/**/*.test.ts"],
    pool: "forks",
    // One build at a time: two cores, and make decides by file dates.
    fileParallelism: false,
    testTimeout: 600_000,
    hookTimeout: 600_000,
  },
});
