// `svc-server ftdc FILE... -charts DIR` as a user runs it: CSV with a header row wherever the
// names change, one well-formed SVG chart per metric (checked in Chromium) with the metric's
// name escaped, and bad files (garbage, a huge schema, a cut reading) named with the byte where
// they go wrong, after the readings before it.
import { chromium, type Browser } from "playwright-core";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createFtdcEncoder } from "../../../core/index.js";
import { runCli } from "../../helpers/run-cli.js";

const dir = mkdtempSync(join(tmpdir(), "svc-ftdc-command-"));
let browser: Browser;
beforeAll(async () => {
  browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: ["--no-sandbox", "--headless"] });
});
afterAll(async () => {
  await browser?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Parsed by Chromium's own XML parser: its errors, polylines (their point counts), title, scripts and axes. */
const inBrowser = `(source) => {
  const doc = new DOMParser().parseFromString(source, "image/svg+xml");
  return {
    error: doc.getElementsByTagName("parsererror").length,
    polylines: [...doc.getElementsByTagName("polyline")].map((p) => p.getAttribute("points").trim().split(/\\s+/).length),
    title: doc.getElementsByTagName("title")[0]?.textContent,
    scripts: doc.getElementsByTagName("script").length,
    axes: doc.getElementsByClassName("axis").length,
  };
}`;

const t0 = BigInt(Date.UTC(2026, 10, 29, 7, 0, 0)) * 1_000_000n;
const second = 1_000_000_000n;
const hostile = 'x.<script>alert("&")</script>';

/** A file of four readings whose names change after the second: a module appears. */
function writeSample(name: string): string {
  const encoder = createFtdcEncoder();
  const before = ["api.calls", "process.rss_bytes"];
  const after = ["api.calls", "modules.counter.rss_bytes", "process.rss_bytes", hostile];
  const bytes = Buffer.concat([
    encoder.encode(t0, before, [1, 1000]),
    encoder.encode(t0 + second, before, [2, 1000]),
    encoder.encode(t0 + 2n * second, after, [3, 5000.5, 1000, 0.1]),
    encoder.encode(t0 + 3n * second, after, [4, 6000, 1200, -2]),
  ]);
  const file = join(dir, name);
  writeFileSync(file, bytes);
  return file;
}

describe("svc-server ftdc", () => {
  it("prints the readings as CSV, a new header row where the names change", () => {
    const file = writeSample("sample.ftdc");
    const { code, stdout, stderr } = runCli("svc-server", ["ftdc", file]);
    expect(code, stderr).toBe(0);
    expect(stdout).toBe(
      [
        "time,api.calls,process.rss_bytes",
        "2026-11-29T07:00:00.000000000Z,1,1000",
        "2026-11-29T07:00:01.000000000Z,2,1000",
        `time,api.calls,modules.counter.rss_bytes,process.rss_bytes,"x.<script>alert(""&"")</script>"`,
        "2026-11-29T07:00:02.000000000Z,3,5000.5,1000,0.1",
        "2026-11-29T07:00:03.000000000Z,4,6000,1200,-2",
        "",
      ].join("\n"),
    );
  });

  it("writes a well-formed SVG chart per metric, a polyline each, the names escaped", async () => {
    const file = writeSample("charted.ftdc");
    const charts = join(dir, "charts");
    const { code, stderr } = runCli("svc-server", ["ftdc", file, "-charts", charts]);
    expect(code, stderr).toBe(0);
    expect(stderr).toContain(`wrote 4 chart(s) to ${charts}`);
    const svgs = readdirSync(charts).filter((f) => f.endsWith(".svg")).sort();
    expect(svgs).toHaveLength(4);
    const page = await browser.newPage();
    try {
      for (const svg of svgs) {
        const text = readFileSync(join(charts, svg), "utf8");
        const parsed = (await page.evaluate(`(${inBrowser})(${JSON.stringify(text)})`)) as { error: number; polylines: number[]; title: string; scripts: number; axes: number };
        expect(parsed.error, svg).toBe(0);
        expect(parsed.polylines).toHaveLength(1);
        expect(parsed.axes).toBe(2);
        expect(parsed.scripts).toBe(0);
        if (svg.includes("x._script_")) {
          expect(parsed.title).toBe(hostile);
          expect(text).toContain("x.&lt;script&gt;alert(&quot;&amp;&quot;)&lt;/script&gt;");
        }
      }
      // api.calls is in all four readings, the module's metric in the last two.
      const points = (name: string) => readFileSync(join(charts, svgs.find((s) => s.includes(name))!), "utf8").match(/points="([^"]*)"/)![1]!.split(" ").length;
      expect(points("api.calls")).toBe(4);
      expect(points("modules.counter.rss_bytes")).toBe(2);
      const index = readFileSync(join(charts, "index.html"), "utf8");
      expect(index).not.toContain("<script>");
      expect(index.match(/<img /g)).toHaveLength(4);
    } finally {
      await page.close();
    }
  });

  it("names a bad file and the byte where it goes wrong, after printing the readings before it", () => {
    const good = readFileSync(writeSample("whole.ftdc"));
    const cut = join(dir, "cut.ftdc");
    writeFileSync(cut, good.subarray(0, good.length - 5));
    const result = runCli("svc-server", ["ftdc", cut]);
    expect(result.code).toBe(1);
    expect(result.stdout.trim().split("\n")).toHaveLength(5);
    expect(result.stderr).toMatch(new RegExp(`^svc-server ftdc: ${cut}: byte \\d+: a reading of 25 bytes is cut short: 20 left\\n$`));

    const garbage = join(dir, "garbage.ftdc");
    writeFileSync(garbage, Buffer.from("PK\u0003\u0004 not ftdc at all"));
    const bad = runCli("svc-server", ["ftdc", garbage]);
    expect(bad.code).toBe(1);
    expect(bad.stdout).toBe("");
    expect(bad.stderr).toBe(`svc-server ftdc: ${garbage}: byte 0: FTDC data starts with a schema document (0x01), not 0x50\n`);
  });

  it("refuses a file that claims a huge schema, without holding it", () => {
    const huge = join(dir, "huge.ftdc");
    writeFileSync(huge, Buffer.concat([Buffer.from([0x01]), Buffer.from('["a'), Buffer.alloc(8 << 20, 0x61)]));
    const result = runCli("svc-server", ["ftdc", huge]);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(`svc-server ftdc: ${huge}: byte 0: a schema document runs past ${1 << 20} bytes without its newline\n`);
  });

  it("refuses to draw more charts than it can show, drawing none", () => {
    const many = join(dir, "many.ftdc");
    const names = Array.from({ length: 2001 }, (_, i) => `m.${i}`);
    writeFileSync(many, createFtdcEncoder().encode(t0, names, names.map(() => 1)));
    const charts = join(dir, "too-many");
    const result = runCli("svc-server", ["ftdc", many, "-charts", charts]);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(`svc-server ftdc: -charts ${charts}: 2001 metrics are more than 2000 charts\n`);
    expect(existsSync(charts)).toBe(false);
  });

  it("goes on to the next file after a bad one, and exits 1", () => {
    const good = writeSample("next.ftdc");
    const missing = join(dir, "no-such.ftdc");
    const result = runCli("svc-server", ["ftdc", missing, good]);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(`svc-server ftdc: ${missing}: cannot be read: ENOENT: no such file or directory, stat '${missing}'\n`);
    expect(result.stdout.split("\n")[0]).toBe("time,api.calls,process.rss_bytes");
  });

  it("asks for a file when given none, and shows its usage", () => {
    const none = runCli("svc-server", ["ftdc"]);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain("svc-server ftdc: name at least one FTDC file");
    expect(none.stderr).toContain("Usage: svc-server ftdc FILE... [-charts DIR]");
    const help = runCli("svc-server", ["ftdc", "-help"]);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain("-charts <dir>");
  });
});
