// The API handlers in XS: one scenario (every service, motions on a manual clock, a cancelled
// GoFor, errors of each kind) run on Node and in a real XS worker, compared byte for byte. The
// scenario is bundled the way the MCU bundle is (platform neutral, no Node builtin), generated
// schemas included, so decoding and encoding are exercised in XS too.
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ScenarioInXs } from "../../../tools/xs/scenario-in-xs.js";
import { runRpcScenario, type RpcScenarioInput } from "./rpc-scenario.js";

const component = (subtype: string, name: string, attributes: Record<string, unknown> = {}) => ({
  name,
  api: `rdk:component:${subtype}`,
  model: "rdk:builtin:fake",
  attributes,
  depends_on: [],
});

const scenario: RpcScenarioInput = {
  components: [
    component("sensor", "temp", { readings: { celsius: 21.5, tags: ["a", { b: null }], ok: true } }),
    component("board", "pi", { analogs: [{ name: "light", pin: "30" }] }),
    component("encoder", "enc"),
    component("motor", "m", { max_rpm: 120, encoder: "enc" }),
    component("motor", "waiting", { encoder: "missing" }),
    component("servo", "arm", { speed_deg_per_sec: 90 }),
    component("movement_sensor", "imu"),
    component("power_sensor", "supply"),
    component("generic", "thing"),
  ],
  services: [{ name: "helper", api: "rdk:service:generic", model: "rdk:builtin:fake", attributes: {}, depends_on: [] }],
  steps: [
    { label: "readings", service: "sensor", method: "getReadings", request: { name: "temp" } },
    { label: "not found", service: "sensor", method: "getReadings", request: { name: "nope" } },
    { label: "geometries", service: "sensor", method: "getGeometries", request: { name: "temp" } },
    { label: "gpio", service: "board", method: "setGPIO", request: { name: "pi", pin: "11", high: true } },
    { label: "gpio read", service: "board", method: "getGPIO", request: { name: "pi", pin: "11" } },
    { label: "frequency", service: "board", method: "setPWMFrequency", request: { name: "pi", pin: "12", frequencyHz: "1600" } },
    { label: "duty", service: "board", method: "setPWM", request: { name: "pi", pin: "12", dutyCyclePct: 0.5 } },
    { label: "frequency read", service: "board", method: "pWMFrequency", request: { name: "pi", pin: "12" } },
    { label: "bad duty", service: "board", method: "setPWM", request: { name: "pi", pin: "12", dutyCyclePct: 3 } },
    { label: "analog", service: "board", method: "readAnalogReader", request: { boardName: "pi", analogReaderName: "light" } },
    { label: "power mode", service: "board", method: "setPowerMode", request: { name: "pi" } },
    { label: "go for", service: "motor", method: "goFor", request: { name: "m", rpm: 60, revolutions: 2 }, start: true },
    { advance: 1_000 },
    { label: "moving", service: "motor", method: "isMoving", request: { name: "m" } },
    { advance: 1_000 },
    { finish: "go for" },
    { label: "position", service: "motor", method: "getPosition", request: { name: "m" } },
    { label: "ticks", service: "encoder", method: "getPosition", request: { name: "enc" } },
    { label: "long go for", service: "motor", method: "goFor", request: { name: "m", rpm: -120, revolutions: 10 }, start: true },
    { advance: 250 },
    { cancel: "long go for" },
    { finish: "long go for" },
    { advance: 1_000 },
    { label: "stopped at", service: "motor", method: "getPosition", request: { name: "m" } },
    { label: "unavailable", service: "motor", method: "isMoving", request: { name: "waiting" } },
    { label: "move", service: "servo", method: "move", request: { name: "arm", angleDeg: 45 }, start: true },
    { advance: 500 },
    { finish: "move" },
    { label: "angle", service: "servo", method: "getPosition", request: { name: "arm" } },
    { label: "heading", service: "movement_sensor", method: "getCompassHeading", request: { name: "imu" } },
    { label: "accuracy", service: "movement_sensor", method: "getAccuracy", request: { name: "imu" } },
    { label: "volts", service: "power_sensor", method: "getVoltage", request: { name: "supply" } },
    { label: "echo", service: "generic", method: "doCommand", request: { name: "thing", command: { say: "hi", n: [1, 2] } } },
    { label: "service echo", service: "generic_service", method: "doCommand", request: { name: "helper", command: { x: true } } },
    { label: "wrong api", service: "generic_service", method: "doCommand", request: { name: "rdk:component:generic/thing" } },
  ],
};


describe("the API handlers in XS", () => {
  let xs: ScenarioInXs;
  beforeAll(async () => {
    xs = await ScenarioInXs.start(join(import.meta.dirname, "rpc-scenario.ts"));
  });
  afterAll(() => xs?.close());

  it("gives the same answers and errors as on Node", async () => {
    const node = await runRpcScenario(scenario);
    const reply = await xs.run("runRpcScenario", scenario);
    expect(reply).toBe(JSON.stringify(node));

    const result = (label: string) => node.results.find((r) => r.label === label);
    expect(result("readings")).toEqual({ label: "readings", answer: { readings: { celsius: 21.5, tags: ["a", { b: null }], ok: true } } });
    expect(result("not found")).toEqual({ label: "not found", error: { code: 5, message: 'no rdk:component:sensor named "nope"' } });
    expect(result("frequency read")).toEqual({ label: "frequency read", answer: { frequencyHz: "1600" } });
    expect(result("bad duty")).toMatchObject({ error: { code: 3 } });
    expect(result("power mode")).toMatchObject({ error: { code: 12 } });
    expect(result("moving")).toEqual({ label: "moving", answer: { isMoving: true } });
    expect(result("go for")).toEqual({ label: "go for", answer: {} });
    expect(result("position")).toEqual({ label: "position", answer: { position: 2 } });
    expect(result("ticks")).toEqual({ label: "ticks", answer: { value: 200, positionType: "POSITION_TYPE_TICKS_COUNT" } });
    expect(result("long go for")).toMatchObject({ error: { code: 1 } });
    expect(result("stopped at")).toEqual({ label: "stopped at", answer: { position: 1.5 } });
    expect(result("unavailable")).toMatchObject({ error: { code: 14 } });
    expect(result("angle")).toEqual({ label: "angle", answer: { positionDeg: 45 } });
    expect(result("echo")).toEqual({ label: "echo", answer: { result: { say: "hi", n: [1, 2] } } });
    expect(result("wrong api")).toMatchObject({ error: { code: 3 } });
    expect(node.driven).toEqual(["rdk:component:motor/m", "rdk:component:motor/m", "rdk:component:servo/arm"]);
  });
});
