// docs/server.md, "Diagnostics data (FTDC)": svc-server run with its defaults records into
// ~/.svc/diagnostics.data/local, and the command the page shows turns those files into CSV and
// charts, run as written in a home folder of the test's own.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { eventually } from "../helpers/eventually.js";
import { guideBlocks } from "../helpers/guide.js";
import { makeGuideHome, runBlock } from "../helpers/guide-shell.js";
import { startSvcServer } from "../helpers/svc-server-process.js";

const home = makeGuideHome("svc-guide-ftdc-");
afterAll(() => home.remove());

describe("docs/server.md, Diagnostics data (FTDC)", () => {
  const blocks = guideBlocks("docs/server.md", "Diagnostics data (FTDC)");

  it("prints the readings of a machine's default folder as CSV and writes its charts", async () => {
    expect(blocks.map((b) => b.lang)).toEqual(["sh"]);
    const folder = join(home.dir, ".svc", "diagnostics.data", "local");
    // -ftdc as given on the command line: the default folder, under this home.
    const server = await startSvcServer({ components: [{ name: "temp", api: "rdk:component:sensor", model: "fake" }] }, { args: ["-ftdc"], env: { HOME: home.dir } });
    try {
      await eventually(() => (existsSync(folder) && readdirSync(folder).some((f) => f.endsWith(".ftdc")) ? true : undefined), "the first FTDC file");
    } finally {
      expect(await server.stop()).toBe(0);
    }
    const result = runBlock(blocks[0]!.text, home);
    expect(result.code, result.stderr).toBe(0);
    const csv = readFileSync(join(home.dir, "ftdc.csv"), "utf8").split("\n");
    expect(csv[0]).toMatch(/^time,api\.calls,api\.errors,graph\.reconfigurations,/);
    expect(csv[1]).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{9}Z,0,0,\d+,/);
    const charts = readdirSync(join(home.dir, "ftdc-charts"));
    expect(charts).toContain("index.html");
    expect(charts).toContain("005-graph.resources.READY.svg");
  });
});
