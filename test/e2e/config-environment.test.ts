// `${NAME}` references in the configuration file, against the real svc-server process: filled in
// from svc-server's environment at start and in every later edit of the file (bare where a
// number goes, as Viam's own configurations write them), and a name that is not set refuses the
// file with its line: svc-server does not start on it, -validate says so, and a live edit
// naming it is refused while the machine keeps running.
import * as VIAM from "@viamrobotics/sdk";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eventually } from "../helpers/eventually.js";
import { logLines } from "../helpers/log-lines.js";
import { runCli } from "../helpers/run-cli.js";
import { dialSdk } from "../helpers/sdk-robot.js";
import { startSvcServer, type SvcServerProcess } from "../helpers/svc-server-process.js";

const env = { SVC_TEST_CELSIUS: "21.5", SVC_TEST_UNIT: 'deg "C"' };
const sensorText = (celsius: string, unit = '"${SVC_TEST_UNIT}"') =>
  `{
  "network": { "bind_address": "localhost:0" },
  "components": [
    { "name": "temp", "api": "rdk:component:sensor", "model": "fake",
      "attributes": { "readings": { "celsius": ${celsius}, "unit": ${unit} } } }
  ]
}`;

let server: SvcServerProcess;
let robot: VIAM.RobotClient;
const dir = mkdtempSync(join(tmpdir(), "svc-config-env-"));
beforeAll(async () => {
  server = await startSvcServer({}, { env });
  server.writeConfig(sensorText("${SVC_TEST_CELSIUS}"));
  robot = await dialSdk(server.sdkHost);
});
afterAll(async () => {
  await robot?.disconnect();
  await server?.stop();
  rmSync(dir, { recursive: true, force: true });
});

const readings = async () => new VIAM.SensorClient(robot, "temp").getReadings().catch(() => undefined);

describe("${NAME} in the configuration file", () => {
  it("is filled in from the environment, bare for a number and escaped inside a string", async () => {
    const seen = await eventually(async () => ((await readings())?.celsius === 21.5 ? readings() : undefined), "the sensor of the edit");
    expect(seen).toEqual({ celsius: 21.5, unit: 'deg "C"' });
  });

  it("refuses a live edit naming an unset variable, with its line, and keeps the machine as it was", async () => {
    const before = logLines(server.stdout()).length;
    server.writeConfig(sensorText("${SVC_TEST_NOT_SET}"));
    const refusal = await eventually(
      () => logLines(server.stdout()).slice(before).find((l) => l.msg === "configuration refused; the machine keeps running as it was"),
      "the refusal",
    );
    expect(String(refusal.reason)).toContain("line 5: ${SVC_TEST_NOT_SET} names an environment variable that is not set");
    expect((await readings())?.celsius).toBe(21.5);
    server.writeConfig(sensorText("7"));
    await eventually(async () => ((await readings())?.celsius === 7 ? true : undefined), "the next edit");
  });

  it("keeps svc-server from starting on an unset variable, and -validate says where", () => {
    const file = join(dir, "machine.json");
    writeFileSync(file, sensorText("${SVC_TEST_NOT_SET}"));
    for (const args of [["-config", file], ["-validate", "-config", file]]) {
      const result = runCli("svc-server", args, { env });
      expect(result.code, args.join(" ")).toBe(1);
      expect(result.stderr + result.stdout).toContain(`${file}: line 5: \${SVC_TEST_NOT_SET} names an environment variable that is not set`);
    }
  });
});
