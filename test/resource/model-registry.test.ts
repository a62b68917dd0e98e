import { describe, expect, it } from "vitest";
import { createModelRegistry, validateResourceConfig, type ModelRegistration, type RegistryChange } from "../../core/resource/index.js";

const noop: ModelRegistration["build"] = async (ctx) => ({ name: ctx.name, close: async () => undefined });
const entry = (attributes: Record<string, unknown>) => ({ name: "m", api: "rdk:component:motor", model: "rdk:builtin:gpio", attributes, depends_on: [] });

describe("the model registry", () => {
  it("registers, finds, lists sorted and removes models, announcing each change", () => {
    const registry = createModelRegistry();
    const changes: RegistryChange[] = [];
    registry.onChange((c) => changes.push(c));
    const removeMotor = registry.register({ api: "rdk:component:motor", model: "rdk:builtin:gpio", build: noop, attributesSchema: { type: "object" } });
    registry.register({ api: "rdk:component:board", model: "rdk:builtin:fake", build: noop });
    registry.register({ api: "rdk:component:board", model: "acme:boards:pi", build: noop });
    expect(registry.lookup("rdk:component:motor", "rdk:builtin:gpio")?.build).toBe(noop);
    expect(registry.list()).toEqual([
      { api: "rdk:component:board", model: "acme:boards:pi" },
      { api: "rdk:component:board", model: "rdk:builtin:fake" },
      { api: "rdk:component:motor", model: "rdk:builtin:gpio", attributesSchema: { type: "object" } },
    ]);
    const generation = registry.generation;
    removeMotor();
    removeMotor();
    expect(registry.lookup("rdk:component:motor", "rdk:builtin:gpio")).toBeUndefined();
    expect(registry.generation).toBe(generation + 1);
    expect(registry.unregister("rdk:component:board", "acme:boards:pi")).toBe(true);
    expect(registry.unregister("rdk:component:board", "acme:boards:pi")).toBe(false);
    expect(changes.map((c) => `${c.kind} ${c.api} ${c.model}`)).toEqual([
      "added rdk:component:motor rdk:builtin:gpio",
      "added rdk:component:board rdk:builtin:fake",
      "added rdk:component:board acme:boards:pi",
      "removed rdk:component:motor rdk:builtin:gpio",
      "removed rdk:component:board acme:boards:pi",
    ]);
  });

  it("refuses a duplicate or a malformed registration, naming it", () => {
    const registry = createModelRegistry();
    registry.register({ api: "rdk:component:motor", model: "rdk:builtin:gpio", build: noop });
    expect(() => registry.register({ api: "rdk:component:motor", model: "rdk:builtin:gpio", build: noop })).toThrow(
      "model rdk:builtin:gpio is already registered for API rdk:component:motor",
    );
    expect(() => registry.register({ api: "motor", model: "rdk:builtin:gpio", build: noop })).toThrow(/cannot register model: "motor": an API must be/);
  });
});

describe("validating an entry with its model", () => {
  it("returns the dependencies the validator finds, required and optional, and its issues", () => {
    const registry = createModelRegistry();
    registry.register({
      api: "rdk:component:motor",
      model: "rdk:builtin:gpio",
      build: noop,
      validate: (config, path) => ({
        requiredDependencies: [String(config.attributes.board)],
        optionalDependencies: ["encoder1"],
        issues: typeof config.attributes.pin === "number" ? [] : [{ path: `${path}.attributes.pin`, message: "must be an integer", severity: "error" }],
      }),
    });
    expect(validateResourceConfig(registry, entry({ board: "b1", pin: 3 }), "components[0]")).toEqual({
      modelKnown: true,
      requires: ["b1"],
      optional: ["encoder1"],
      issues: [],
    });
    expect(validateResourceConfig(registry, entry({ board: "b1" }), "components[4]").issues).toEqual([
      { path: "components[4].attributes.pin", message: "must be an integer", severity: "error" },
    ]);
  });

  it("turns a validator that throws or answers nonsense into an issue on the entry", () => {
    const registry = createModelRegistry();
    registry.register({
      api: "rdk:component:motor",
      model: "rdk:builtin:gpio",
      build: noop,
      validate: (config) => {
        if (config.attributes.crash) throw new TypeError("cannot read pin");
        return { requiredDependencies: "b1" as unknown as string[] };
      },
    });
    expect(validateResourceConfig(registry, entry({ crash: true }), "components[1]").issues).toEqual([
      { path: "components[1].attributes", message: "validation failed: cannot read pin", severity: "error" },
    ]);
    expect(validateResourceConfig(registry, entry({}), "components[1]").issues).toEqual([
      { path: "components[1].attributes", message: "the model's validator returned dependencies that are not a list of names", severity: "error" },
    ]);
  });

  it("says when the model is not registered", () => {
    expect(validateResourceConfig(createModelRegistry(), entry({}), "components[0]")).toEqual({ modelKnown: false, requires: [], optional: [], issues: [] });
  });
});
