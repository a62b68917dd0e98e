// `svc-server -validate` reports what the machine would refuse, not only what the file's schema
// says: the models' checks of their attributes, dependency cycles and references, and APIs and
// models this build does not have, with the rule for models a module may bring (an error when no
// configured module can provide it, a warning naming the module whose models are known only once
// it runs). Driven as a real process.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../helpers/run-cli.js";

const fixture = join(import.meta.dirname, "..", "fixtures", "viam-format", "fake-hardware.json");

let dir: string;
const write = (name: string, content: unknown) => {
  const file = join(dir, name);
  writeFileSync(file, JSON.stringify(content));
  return file;
};
const validate = (file: string) => {
  const { code, stdout, stderr } = runCli("svc-server", ["-validate", "-config", file]);
  return { code, lines: `${stdout}${stderr}`.trim().split("\n") };
};
const sensor = (name: string, extra: Record<string, unknown> = {}) => ({ name, api: "rdk:component:sensor", model: "fake", ...extra });

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "svc-validate-"));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("svc-server -validate on a configuration in Viam's format", () => {
  it("names each resource whose model cannot run here, and only those", () => {
    const { code, lines } = validate(fixture);
    expect(code).toBe(1);
    // Viam's API no longer has audio_input (it became audio_in and audio_out); everything else runs.
    const unknown = ["audio_input"].map((t) => `rdk:component:${t}`);
    for (const api of unknown) {
      expect(lines.filter((l) => l.includes(`API ${api} cannot run: svc does not serve that API`))).toHaveLength(1);
    }
    expect(lines.at(-1)).toBe(`${fixture}: 1 error(s), 0 warning(s)`);
    for (const runnable of ["arm1", "base1", "board1", "cam1", "gantry1", "gripper1", "enc1", "thing1", "motor1", "imu1", "sensor1", "servo1", "nav1", "slam1", "pad1", "data1"]) {
      expect(lines.some((l) => l.includes(runnable))).toBe(false);
    }
  });
});

describe("svc-server -validate on what the machine would refuse", () => {
  it("reports an attribute the model refuses, at its place in the file", () => {
    const file = write("wrong-type.json", { components: [{ name: "broken", api: "rdk:component:sensor" }, sensor("s", { attributes: { readings: "notanobject" } })] });
    const { code, lines } = validate(file);
    expect(code).toBe(1);
    expect(lines).toContainEqual(expect.stringMatching(/^components\[1\]\.attributes\.readings: /));
  });

  it("reports a dependency cycle, a missing dependency and an ambiguous one", () => {
    const file = write("graph.json", {
      components: [
        sensor("a", { depends_on: ["b"] }),
        sensor("b", { depends_on: ["a"] }),
        sensor("c", { depends_on: ["ghost"] }),
        sensor("d", { depends_on: ["twin"] }),
        { name: "twin", api: "rdk:component:board", model: "fake" },
        { name: "twin", api: "rdk:component:motor", model: "fake" },
        sensor("e", { depends_on: ["a"] }),
      ],
    });
    const { code, lines } = validate(file);
    expect(code).toBe(1);
    const cycle = "dependency cycle: rdk:component:sensor/a -> rdk:component:sensor/b -> rdk:component:sensor/a";
    expect(lines).toEqual([
      `components[0]: ${cycle}`,
      `components[1]: ${cycle}`,
      'components[2]: missing dependency "ghost": no such resource is configured',
      'components[3]: dependency "twin" is ambiguous: rdk:component:board/twin and rdk:component:motor/twin both match; write the full name',
      `${file}: 4 error(s), 0 warning(s)`,
    ]);
  });
});

describe("svc-server -validate on a model that is not built in", () => {
  const thermometer = sensor("t", { model: "acme:demo:thermometer" });

  it("is an error when no module is configured", () => {
    const { code, lines } = validate(write("no-module.json", { components: [thermometer] }));
    expect(code).toBe(1);
    expect(lines[0]).toMatch(/^components\[0\]: model acme:demo:thermometer of API rdk:component:sensor cannot run: it is not built in \(.*fake.*\) and no module is configured$/);
  });

  it("is a warning naming the module when a configured module's models are known only once it runs", () => {
    const file = write("registry-module.json", {
      components: [thermometer],
      modules: [{ type: "registry", name: "acme-sensors", module_id: "acme:sensors", version: "1.0.0" }],
    });
    const { code, lines } = validate(file);
    expect(code).toBe(0);
    expect(lines).toContainEqual(
      'components[0]: model acme:demo:thermometer is not built in; module "acme-sensors" may provide it (which models a module provides is known once it runs) (warning)',
    );
  });

  it("follows a local module's meta.json: fine when it declares the model, an error when it declares others", () => {
    const moduleDir = join(dir, "acme-module");
    mkdirSync(moduleDir, { recursive: true });
    writeFileSync(join(moduleDir, "run.mjs"), "");
    const module = { type: "local", name: "acme", executable_path: "acme-module/run.mjs" };
    const declare = (model: string) =>
      writeFileSync(join(moduleDir, "meta.json"), JSON.stringify({ module_id: "acme:demo", models: [{ api: "rdk:component:sensor", model }] }));

    declare("acme:demo:thermometer");
    const declared = validate(write("declared.json", { components: [thermometer], modules: [module] }));
    expect(declared.code).toBe(0);
    expect(declared.lines).toEqual([`${join(dir, "declared.json")}: 0 error(s), 0 warning(s)`]);

    declare("acme:demo:barometer");
    const other = validate(write("other.json", { components: [thermometer], modules: [module] }));
    expect(other.code).toBe(1);
    expect(other.lines[0]).toMatch(/^components\[0\]: model acme:demo:thermometer of API rdk:component:sensor cannot run: .* and no configured module declares it$/);
  });
});

describe("svc-server -validate on bases", () => {
  const motor = (name: string) => ({ name, api: "rdk:component:motor", model: "fake" });
  const wheeled = (attributes: Record<string, unknown>) => ({ name: "drive", type: "base", model: "wheeled", attributes });

  it("says a fake base and a wheeled base over the machine's motors can run", () => {
    const file = write("bases.json", {
      components: [{ name: "rover", type: "base", model: "fake" }, motor("l"), motor("r"), wheeled({ left: ["l"], right: ["r"], width_mm: 300, wheel_circumference_mm: 200 })],
    });
    expect(validate(file)).toEqual({ code: 0, lines: [`${file}: 0 error(s), 0 warning(s)`] });
  });

  it("names a wheeled base's bad attributes and a motor it names that is not configured", () => {
    const bad = validate(write("bad-base.json", { components: [motor("l"), wheeled({ left: ["l"], right: [3], width_mm: 300 })] }));
    expect(bad.code).toBe(1);
    expect(bad.lines.slice(0, -1)).toEqual(["components[1].attributes.right[0]: must be a motor's name", "components[1].attributes.wheel_circumference_mm: required"]);
    const missing = validate(write("missing-motor.json", { components: [motor("l"), wheeled({ left: ["l"], right: ["r"], width_mm: 300, wheel_circumference_mm: 200 })] }));
    expect(missing.lines[0]).toBe('components[1]: missing dependency "r": no such resource is configured');
  });
});

describe("svc-server -validate on navigation and SLAM services", () => {
  const navigation = (attributes: Record<string, unknown> = {}) => ({ name: "nav", type: "navigation", model: "fake", attributes });
  const slam = (attributes: Record<string, unknown> = {}) => ({ name: "slam", type: "slam", model: "fake", attributes });

  it("says the fake navigation and SLAM services can run", () => {
    const file = write("nav-slam.json", { services: [navigation({ map_type: "None" }), slam({ map_points: 4800 })] });
    expect(validate(file)).toEqual({ code: 0, lines: [`${file}: 0 error(s), 0 warning(s)`] });
  });

  it("names each bad attribute at its place in the file", () => {
    const obstacles = [{ location: { latitude: 0 }, geometries: [{ type: "cone" }, { type: "box", x: 1, y: -2, z: 3, translation_offset: { x: 5 } }] }];
    const file = write("bad-nav-slam.json", {
      services: [navigation({ map_type: "Lunar", location: { latitude: 91, longitude: 0 }, compass_heading: -1, obstacles }), slam({ map_points: 5 })],
    });
    const { code, lines } = validate(file);
    expect(code).toBe(1);
    expect(lines.slice(0, -1)).toEqual([
      'services[0].attributes.map_type: must be "GPS" or "None", not "Lunar"',
      "services[0].attributes.location.latitude: must be at most 90",
      "services[0].attributes.compass_heading: must be at least 0",
      'services[0].attributes.obstacles[0].geometries[0].type: must be "box", "sphere" or "capsule", not "cone"',
      "services[0].attributes.obstacles[0].geometries[1].translation_offset: must be zero: an obstacle's geometries are centred on its location",
      "services[0].attributes.obstacles[0].geometries[1].y: must be greater than 0",
      "services[0].attributes.obstacles[0].location.longitude: required",
      "services[1].attributes.map_points: must be at least 24",
    ]);
  });
});

describe("svc-server -validate on input controllers, vision services and data managers", () => {
  const pad = (attributes: Record<string, unknown> = {}) => ({ name: "pad", type: "input_controller", model: "fake", attributes });
  const vision = (attributes: Record<string, unknown> = {}) => ({ name: "vis", type: "vision", model: "fake", attributes });
  const data = (attributes: Record<string, unknown> = {}) => ({ name: "data", type: "data_manager", model: "builtin", attributes });

  it("says the fakes and the data manager, as Viam's files write them, can run", () => {
    const file = write("input-vision-data.json", {
      components: [pad({ controls: ["ButtonSouth"], event_value: 1, callback_delay_sec: 0 })],
      services: [vision({ default_camera: "cam" }), data({ capture_dir: "", sync_interval_mins: 0.5, tags: ["t"], mongo_capture_config: {} })],
    });
    expect(validate(file)).toEqual({ code: 0, lines: [`${file}: 0 error(s), 0 warning(s)`] });
  });

  it("names each bad attribute at its place in the file", () => {
    const file = write("bad-input-vision-data.json", {
      components: [pad({ controls: ["ButtonSouth", "", "ButtonSouth"], event_value: "high", callback_delay_sec: -1 })],
      services: [vision({ default_camera: 7 }), data({ capture_dir: 5, sync_interval_mins: -1, tags: "t", capture_disabled: "no", maximum_num_sync_threads: 1.5 })],
    });
    const { code, lines } = validate(file);
    expect(code).toBe(1);
    expect(lines.slice(0, -1)).toEqual([
      "components[0].attributes.callback_delay_sec: must be at least 0",
      "components[0].attributes.controls[1]: must be a non-empty string",
      "components[0].attributes.controls[2]: ButtonSouth is listed twice",
      "components[0].attributes.event_value: must be a number",
      "services[0].attributes.default_camera: must be a non-empty string",
      "services[1].attributes.capture_dir: must be a string",
      "services[1].attributes.capture_disabled: must be true or false",
      "services[1].attributes.sync_interval_mins: must be at least 0",
      "services[1].attributes.maximum_num_sync_threads: must be a whole number",
      "services[1].attributes.tags: must be a list of strings",
    ]);
  });
});

describe("svc-server -validate on motion services", () => {
  it("says the motion service, as Viam's files write it (no model) and as fake, can run", () => {
    const file = write("motion.json", {
      services: [{ name: "builtin", type: "motion" }, { name: "planner", type: "motion", model: "builtin", attributes: { num_threads: 2, log_planner_errors: true } }, { name: "m", type: "motion", model: "fake" }],
    });
    expect(validate(file)).toEqual({ code: 0, lines: [`${file}: 0 error(s), 0 warning(s)`] });
  });

  it("names each bad attribute at its place in the file", () => {
    const file = write("bad-motion.json", { services: [{ name: "builtin", type: "motion", attributes: { num_threads: -1, log_planner_errors: "yes", plan_file_path: 3 } }] });
    const { code, lines } = validate(file);
    expect(code).toBe(1);
    expect(lines.slice(0, -1)).toEqual([
      "services[0].attributes.plan_file_path: must be a string",
      "services[0].attributes.log_planner_errors: must be true or false",
      "services[0].attributes.num_threads: must be at least 0",
    ]);
  });
});

describe("svc-server -validate on audio in and audio out", () => {
  it("says the fakes, as Viam's files write them and with their attributes, can run", () => {
    const file = write("audio.json", {
      components: [
        { name: "audio_in1", type: "audio_in", model: "fake" },
        { name: "audio_out1", type: "audio_out", model: "fake" },
        { name: "tone", type: "audio_in", model: "fake", attributes: { sample_rate: 16000, num_channels: 2, frequency_hz: 1000, amplitude: 0.1 } },
        { name: "speaker", type: "audio_out", model: "fake", attributes: { sample_rate: 48000, num_channels: 0 } },
      ],
    });
    expect(validate(file)).toEqual({ code: 0, lines: [`${file}: 0 error(s), 0 warning(s)`] });
  });

  it("names each bad attribute at its place in the file", () => {
    const file = write("bad-audio.json", {
      components: [
        { name: "tone", type: "audio_in", model: "fake", attributes: { sample_rate: 8000, num_channels: 1.5, frequency_hz: 4500, amplitude: -0.5 } },
        { name: "speaker", type: "audio_out", model: "fake", attributes: { sample_rate: 5, num_channels: "two" } },
      ],
    });
    const { code, lines } = validate(file);
    expect(code).toBe(1);
    expect(lines.slice(0, -1)).toEqual([
      "components[0].attributes.num_channels: must be a whole number",
      "components[0].attributes.frequency_hz: must be at most half the sample rate (4000 Hz at 8000 Hz)",
      "components[0].attributes.amplitude: must be at least 0",
      "components[1].attributes.sample_rate: must be 0 (for 44100) or at least 10",
      "components[1].attributes.num_channels: must be a number",
    ]);
  });
});
