import { configDefaults, defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    // The firmware built by the Moddable SDK has its own run: npm run test:firmware.
    exclude: [...configDefaults.exclude, "test/firmware/**"],
    // Tests drive real child processes (XS workers, servers); two cores are the norm here.
    pool: "forks",
    testTimeout: 60_000,
    hookTimeout: 60_000,
    reporters: process.env.CI ? ["default", "json"] : ["default"],
    outputFile: { json: ".vitest-report.json" },
  },
});
