// Edits the machine cannot carry out in full, against the real svc-server process: a running
// sensor given an attribute of the wrong type, or a depends_on that makes a cycle with running
// resources, keeps running as it was (the client still reads it) while the rest of the edit
// applies; and every resource that cannot run (refused entry, unknown model, missing or ambiguous
// dependency) is named in the log once, with the reason (a wait once it outlasts a few seconds).
import * as VIAM from "@viamrobotics/sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eventually } from "../helpers/eventually.js";
import { logLines, type LogLine } from "../helpers/log-lines.js";
import { dialSdk, fullName } from "../helpers/sdk-robot.js";
import { startSvcServer, type SvcServerProcess } from "../helpers/svc-server-process.js";

const SENSOR = "rdk:component:sensor";
const sensor = (name: string, readings: unknown, extra: Record<string, unknown> = {}) => ({
  name,
  api: SENSOR,
  model: "fake",
  attributes: { readings },
  ...extra,
});

let server: SvcServerProcess;
let robot: VIAM.RobotClient;
beforeAll(async () => {
  server = await startSvcServer({ components: [sensor("a", { x: 1 }), sensor("b", { y: 1 }), sensor("c", {}, { depends_on: ["a"] })] });
  robot = await dialSdk(server.sdkHost);
});
afterAll(async () => {
  await robot?.disconnect();
  await server?.stop();
});

const readings = (name: string) => new VIAM.SensorClient(robot, name).getReadings();
const readingsBecome = (name: string, expected: Record<string, unknown>) =>
  eventually(async () => (JSON.stringify(await readings(name)) === JSON.stringify(expected) ? true : undefined), `${name} reading ${JSON.stringify(expected)}`);
const states = async () =>
  Object.fromEntries((await robot.getMachineStatus()).resources.map((r) => [fullName(r.name!), VIAM.robotApi.ResourceStatus_State[r.state]]));
const engineLines = (after = 0): LogLine[] => logLines(server.stdout()).slice(after).filter((l) => l.logger === "svc.resource_manager");
const about = (name: string, after = 0) => engineLines(after).filter((l) => l.resource === `${SENSOR}/${name}`);
const applied = async (after: number) =>
  eventually(() => logLines(server.stdout()).slice(after).find((l) => l.msg === "configuration applied"), "the edit applied");

describe("an edit that gives a running sensor an attribute of the wrong type", () => {
  it("keeps the sensor running as it was, says why once, and applies the rest", async () => {
    const seen = logLines(server.stdout()).length;
    server.writeConfig({ components: [sensor("a", "notanobject"), sensor("b", { y: 2 }), sensor("c", {}, { depends_on: ["a"] })] });
    await readingsBecome("b", { y: 2 });
    await applied(seen);

    expect(await readings("a")).toEqual({ x: 1 });
    expect(await states()).toEqual({ [`${SENSOR}/a`]: "READY", [`${SENSOR}/b`]: "READY", [`${SENSOR}/c`]: "READY" });
    const said = about("a", seen);
    expect(said).toHaveLength(1);
    expect(said[0]).toMatchObject({ level: "error", path: "components[0]" });
    expect(said[0]!.msg).toMatch(/^rdk:component:sensor\/a: the changed entry is refused and the resource keeps running as configured before: invalid configuration: components\[0\]\.attributes\.readings: /);
  });
});

describe("an edit whose depends_on makes a cycle with running sensors", () => {
  it("keeps both running as they were, names the cycle once, and applies the rest", async () => {
    const seen = logLines(server.stdout()).length;
    server.writeConfig({
      components: [sensor("a", { x: 1 }, { depends_on: ["b"] }), sensor("b", { y: 3 }, { depends_on: ["a"] }), sensor("c", {}, { depends_on: ["a"] }), sensor("d", { z: 1 })],
    });
    await readingsBecome("d", { z: 1 });
    await applied(seen);

    expect(await readings("b")).toEqual({ y: 2 });
    expect(await readings("a")).toEqual({ x: 1 });
    for (const name of ["a", "b"]) {
      const said = about(name, seen);
      expect(said).toHaveLength(1);
      expect(said[0]!.msg).toContain(`dependency cycle: ${SENSOR}/a -> ${SENSOR}/b -> ${SENSOR}/a`);
    }
  });
});

describe("resources that cannot run", () => {
  it("are each named in the log once, with the reason, through later edits", async () => {
    const seen = logLines(server.stdout()).length;
    const components = [
      sensor("a", { x: 1 }),
      sensor("b", { y: 3 }),
      { name: "mic1", api: "rdk:component:audio_input", model: "fake" },
      { name: "e", api: SENSOR, model: "acme:demo:thermometer" },
      sensor("f", {}, { depends_on: ["ghost"] }),
      sensor("g", {}, { depends_on: ["twin"] }),
      { name: "twin", api: "rdk:component:board", model: "fake" },
      { name: "twin", api: "rdk:component:motor", model: "fake" },
    ];
    server.writeConfig({ components });
    await readingsBecome("b", { y: 3 });
    await applied(seen);
    const next = logLines(server.stdout()).length;
    server.writeConfig({ components: [...components, sensor("h", { w: 1 })] });
    await readingsBecome("h", { w: 1 });
    await applied(next);

    const named = (resource: string) => engineLines(seen).filter((l) => l.resource === resource).map((l) => [l.level, l.msg]);
    // A wait is said once it outlasts a few seconds (a module may be about to bring the model).
    for (const waiting of ["rdk:component:audio_input/mic1", `${SENSOR}/e`, `${SENSOR}/f`]) {
      await eventually(() => (named(waiting).length > 0 ? true : undefined), `${waiting} named in the log`);
    }
    expect(named("rdk:component:audio_input/mic1")).toEqual([
      ["warn", "rdk:component:audio_input/mic1: no model rdk:builtin:fake is registered for API rdk:component:audio_input; waiting for it to be registered"],
    ]);
    expect(named(`${SENSOR}/e`)).toEqual([
      ["warn", `${SENSOR}/e: no model acme:demo:thermometer is registered for API ${SENSOR}; waiting for it to be registered`],
    ]);
    expect(named(`${SENSOR}/f`)).toEqual([["warn", `${SENSOR}/f: missing dependency "ghost": no such resource is configured`]]);
    expect(named(`${SENSOR}/g`)).toEqual([
      ["error", `${SENSOR}/g: dependency "twin" is ambiguous: rdk:component:board/twin and rdk:component:motor/twin both match; write the full name`],
    ]);
  });
});
