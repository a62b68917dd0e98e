// Hostile edits of the followed file against the real svc-server process: attributes nested
// thousands of levels deep, and a file past the size limit, are refused with their place, the
// running resources keep answering, and every later edit still applies; a file far larger than
// any configuration is refused from its size without being read. Nesting up to the limit
// is an ordinary configuration: it is applied, diffed and changed like any other.
import * as VIAM from "@viamrobotics/sdk";
import { mkdtempSync, rmSync, truncateSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eventually } from "../helpers/eventually.js";
import { logLines, type LogLine } from "../helpers/log-lines.js";
import { runCli } from "../helpers/run-cli.js";
import { dialSdk } from "../helpers/sdk-robot.js";
import { startSvcServer, type SvcServerProcess } from "../helpers/svc-server-process.js";

const REFUSED = "configuration refused; the machine keeps running as it was";

/** Arrays and objects taking turns, `levels` deep, with `leaf` at the bottom. */
function nested(levels: number, leaf: unknown = 1): unknown {
  let value: unknown = leaf;
  for (let i = levels - 1; i >= 0; i--) value = i % 2 === 0 ? [value] : { k: value };
  return value;
}

const sensor = (celsius: number, extra: Record<string, unknown> = {}) => ({
  name: "temp",
  api: "rdk:component:sensor",
  model: "fake",
  attributes: { readings: { celsius }, ...extra },
});
const configText = (components: unknown[]) => JSON.stringify({ network: { bind_address: "localhost:0" }, components });

let server: SvcServerProcess;
let robot: VIAM.RobotClient;
beforeAll(async () => {
  server = await startSvcServer({ components: [sensor(1)] });
  robot = await dialSdk(server.sdkHost);
});
afterAll(async () => {
  await robot?.disconnect();
  await server?.stop();
});

const celsius = async () => (await new VIAM.SensorClient(robot, "temp").getReadings()).celsius;
const logged = (after: number, match: (line: LogLine) => boolean, what: string) =>
  eventually(() => logLines(server.stdout()).slice(after).find(match), what);
const readingsBecome = (value: number) =>
  eventually(async () => ((await celsius()) === value ? true : undefined), `the readings of the edit (${value})`);

describe("an edit nested deeper than the limit", () => {
  it("is refused with its place, the sensor keeps answering, and the next edit applies", async () => {
    const seen = logLines(server.stdout()).length;
    // 2 + 3,000 levels: the configuration object, the components list, the entry, its attributes, then the nesting.
    writeFileSync(server.configFile, configText([sensor(1, { deep: nested(3000) })]));

    const refusal = await logged(seen, (l) => l.msg === REFUSED, "the refusal in the log");
    expect(String(refusal.reason)).toContain("components[0].attributes.deep: nested deeper than 32 levels");
    expect(await celsius()).toBe(1);

    writeFileSync(server.configFile, configText([sensor(2)]));
    await readingsBecome(2);
    // The file the server started with, once more.
    writeFileSync(server.configFile, configText([sensor(1)]));
    await readingsBecome(1);
    expect(logLines(server.stdout()).filter((l) => String(l.error ?? "").includes("Maximum call stack"))).toEqual([]);
  });
});

describe("an edit nested up to the limit", () => {
  it("is applied, and a change deep inside it is applied and logged like any other", async () => {
    // The document is level 1, components 2, the entry 3, attributes 4, `deep` the 5th to the 32nd.
    writeFileSync(server.configFile, configText([sensor(3, { deep: nested(28, "a") })]));
    await readingsBecome(3);
    const seen = logLines(server.stdout()).length;
    writeFileSync(server.configFile, configText([sensor(4, { deep: nested(28, "b") })]));
    await readingsBecome(4);
    const change = await logged(seen, (l) => l.msg.startsWith("config change:") && l.msg.includes("attributes.deep"), "the deep change in the log");
    expect(change.msg).toContain('"a" -> "b"');
  });
});

describe("an edit larger than the limit", () => {
  it("is refused with its size, and the next edit applies", async () => {
    const seen = logLines(server.stdout()).length;
    writeFileSync(server.configFile, configText([sensor(5, { big: "x".repeat(5 * 1024 * 1024) })]));
    const refusal = await logged(seen, (l) => l.msg === REFUSED, "the refusal in the log");
    expect(String(refusal.reason)).toMatch(/at most 4,194,304 characters/);
    expect(await celsius()).toBe(4);
    writeFileSync(server.configFile, configText([sensor(6)]));
    await readingsBecome(6);
  });
});

describe("a file far larger than any configuration", () => {
  it("is not read: one warning with its size, the sensor keeps answering, and the next edit applies", async () => {
    const seen = logLines(server.stdout()).length;
    // 64 MiB that take no room: the server must refuse it from its size, not by reading it.
    truncateSync(server.configFile, 64 * 1024 * 1024);
    const warning = await logged(seen, (l) => l.problem === "too large", "the warning about the file's size");
    expect(warning.msg).toBe("cannot read the configuration file; the machine keeps running as it is");
    expect(String(warning.detail)).toContain("is 67108864 bytes: larger than a configuration may be");
    expect(await celsius()).toBe(6);
    writeFileSync(server.configFile, configText([sensor(7)]));
    await readingsBecome(7);
  });
});

describe("svc-server started on a file far larger than any configuration", () => {
  it("exits 1 saying so, without reading it", async () => {
    const dir = mkdtempSync(join(tmpdir(), "svc-huge-config-"));
    try {
      const file = join(dir, "machine.json");
      writeFileSync(file, "");
      truncateSync(file, 64 * 1024 * 1024);
      const result = runCli("svc-server", ["-config", file]);
      expect(result.code).toBe(1);
      expect(result.stderr).toContain("is 67108864 bytes: larger than a configuration may be");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
