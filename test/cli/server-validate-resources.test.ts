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
    const unknown = ["arm", "audio_input", "base", "gantry", "gripper", "input_controller"].map((t) => `rdk:component:${t}`);
    unknown.push("rdk:service:navigation", "rdk:service:slam", "rdk:service:data_manager");
    for (const api of unknown) {
      expect(lines.filter((l) => l.includes(`API ${api} cannot run: svc does not serve that API`))).toHaveLength(1);
    }
    expect(lines.at(-1)).toBe(`${fixture}: 9 error(s), 0 warning(s)`);
    for (const runnable of ["board1", "cam1", "enc1", "thing1", "motor1", "imu1", "sensor1", "servo1"]) {
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
