// How a part's config and its fragments become the one config a machine runs: both ways of listing
// fragments, nesting, a fragment reached twice, per-part overrides, and every way it can go wrong
// said in words with its place: cycles, clashes, unknown fragments, bad mods, oversize results.
import { describe, expect, it } from "vitest";
import { MAX_CONFIG_CHARACTERS, parseMachineConfig } from "../../core/index.js";
import { mergeFragments, MAX_FRAGMENT_NESTING, type FragmentSource } from "../../targets/cloud/fleet/merge-fragments.js";

type Config = Record<string, unknown>;

function library(...fragments: [string, Config][]) {
  const byId = new Map<string, FragmentSource>(fragments.map(([id, config]) => [id, { id, name: `${id}-name`, config }]));
  return async (id: string) => byId.get(id);
}

const motor = (name: string, attributes: Config = {}) => ({ name, api: "rdk:component:motor", model: "rdk:builtin:fake", attributes });
const part = (config: Config) => ({ label: "the part", config });

describe("merging fragments", () => {
  it("adds a fragment's resources to the part's, by id or by Viam's {id} form, and leaves no trace of how", async () => {
    const lookup = library(["a", { components: [motor("left")], modules: [{ name: "m", executable_path: "/bin/m" }] }], ["b", { services: [{ name: "nav", api: "rdk:service:navigation" }] }]);
    const merged = await mergeFragments(part({ components: [motor("right")], fragments: ["a", { id: "b" }], revision: "3" }), lookup);
    expect(merged.fragmentIds).toEqual(["a", "b"]);
    expect((merged.config.components as Config[]).map((c) => c.name)).toEqual(["right", "left"]);
    expect((merged.config.services as Config[])[0]!.name).toBe("nav");
    expect(merged.config).not.toHaveProperty("fragments");
    expect(merged.config).not.toHaveProperty("fragment_mods");
    expect(merged.config).not.toHaveProperty("revision");
  });

  it("includes nested fragments, and one reached by two paths once", async () => {
    const lookup = library(["top", { fragments: ["left", "right"] }], ["left", { fragments: ["shared"] }], ["right", { fragments: ["shared"] }], ["shared", { components: [motor("m")] }]);
    const merged = await mergeFragments(part({ fragments: ["top"] }), lookup);
    expect(merged.fragmentIds).toEqual(["top", "left", "shared", "right"]);
    expect(merged.config.components).toHaveLength(1);
  });

  it("names a cycle whole", async () => {
    const lookup = library(["a", { fragments: ["b"] }], ["b", { fragments: ["c"] }], ["c", { fragments: ["a"] }]);
    await expect(mergeFragments(part({ fragments: ["a"] }), lookup)).rejects.toThrow(
      'fragments form a cycle: fragment "a-name" (a) -> fragment "b-name" (b) -> fragment "c-name" (c) -> fragment "a-name" (a)',
    );
    // A fragment that lists itself is caught when that fragment is saved.
    await expect(mergeFragments({ fragmentId: "a", label: 'fragment "a-name" (a)', config: { fragments: ["a"] } }, lookup)).rejects.toThrow(/cycle/);
  });

  it("refuses a resource name that two sources provide, naming both", async () => {
    const lookup = library(["a", { components: [motor("left")] }], ["b", { components: [motor("left")] }]);
    await expect(mergeFragments(part({ components: [motor("left")], fragments: ["a"] }), lookup)).rejects.toThrow(
      'component "left" is in both the part and fragment "a-name" (a)',
    );
    await expect(mergeFragments(part({ fragments: ["a", "b"] }), lookup)).rejects.toThrow('component "left" is in both fragment "a-name" (a) and fragment "b-name" (b)');
  });

  it("merges settings field by field and refuses one set differently in two places", async () => {
    const lookup = library(["a", { agent: { version_control: { agent: "stable" } } }], ["b", { agent: { version_control: { agent: "dev" } } }]);
    const merged = await mergeFragments(part({ agent: { advanced_settings: { debug: true } }, fragments: ["a"] }), lookup);
    expect(merged.config.agent).toEqual({ advanced_settings: { debug: true }, version_control: { agent: "stable" } });
    await expect(mergeFragments(part({ fragments: ["a", "b"] }), lookup)).rejects.toThrow(
      'agent.version_control.agent is set by both fragment "a-name" (a) and fragment "b-name" (b), differently',
    );
  });

  it("says which fragment is missing and where it is listed", async () => {
    const lookup = library(["a", { fragments: ["gone"] }]);
    await expect(mergeFragments(part({ fragments: ["a"] }), lookup)).rejects.toThrow('fragment "a-name" (a): fragments[0]: no fragment gone in this organisation');
    await expect(mergeFragments(part({ fragments: [42] }), lookup)).rejects.toThrow("the part: fragments[0] must be a fragment's id");
  });

  it("applies a part's fragment_mods to what the fragment provides, nested fragments included", async () => {
    const lookup = library(["kit", { fragments: ["base"], components: [motor("arm", { speed: 1, limit: 5 })] }], ["base", { components: [motor("wheel", { pins: [1, 2] })] }]);
    const merged = await mergeFragments(
      part({
        fragments: ["kit"],
        fragment_mods: [
          {
            fragment_id: "kit",
            mods: [
              { $set: { "components.arm.attributes.speed": 2, "components.arm.attributes.new.deep": true } },
              { $unset: { "components.arm.attributes.limit": "" } },
              { $set: { "components.wheel.attributes.pins.1": 7 } },
            ],
          },
        ],
      }),
      lookup,
    );
    const byName = new Map((merged.config.components as Config[]).map((c) => [c.name, c.attributes]));
    expect(byName.get("arm")).toEqual({ speed: 2, new: { deep: true } });
    expect(byName.get("wheel")).toEqual({ pins: [1, 7] });
  });

  it("refuses mods that reach nothing, an operator it does not apply, a name change and a prototype key", async () => {
    const lookup = library(["kit", { components: [motor("arm")] }], ["other", {}]);
    const withMods = (fragment_id: string, mod: Config) => part({ fragments: ["kit", "other"], fragment_mods: [{ fragment_id, mods: [mod] }] });
    await expect(mergeFragments(withMods("kit", { $set: { "components.leg.attributes.x": 1 } }), lookup)).rejects.toThrow(
      'the part: fragment_mods[0].mods[0].$set["components.leg.attributes.x"]: fragment "kit-name" (kit) provides no component "leg"',
    );
    await expect(mergeFragments(withMods("other", { $set: { "components.arm.attributes.x": 1 } }), lookup)).rejects.toThrow(/fragment "other-name" \(other\) provides no component "arm"/);
    await expect(mergeFragments(withMods("elsewhere", { $set: { "components.arm.attributes.x": 1 } }), lookup)).rejects.toThrow(
      "fragment_mods[0].fragment_id: elsewhere is not a fragment this config uses",
    );
    await expect(mergeFragments(withMods("kit", { $inc: { "components.arm.attributes.x": 1 } }), lookup)).rejects.toThrow('"$inc" is not applied');
    await expect(mergeFragments(withMods("kit", { $set: { "components.arm.name": "leg" } }), lookup)).rejects.toThrow("cannot be changed by a mod");
    await expect(mergeFragments(withMods("kit", { $set: { "components.arm.attributes.__proto__.polluted": 1 } }), lookup)).rejects.toThrow('"__proto__" cannot be set');
    expect(({} as Config).polluted).toBeUndefined();
  });

  it("refuses fragments nested past the limit and a result past the size limit", async () => {
    const chain: [string, Config][] = Array.from({ length: MAX_FRAGMENT_NESTING + 3 }, (_, i) => [`f${i}`, { fragments: [`f${i + 1}`] }]);
    chain.push([`f${MAX_FRAGMENT_NESTING + 3}`, {}]);
    await expect(mergeFragments(part({ fragments: ["f0"] }), library(...chain))).rejects.toThrow(`fragments nest deeper than ${MAX_FRAGMENT_NESTING} levels`);

    const big = "x".repeat(MAX_CONFIG_CHARACTERS / 2);
    const lookup = library(["a", { components: [motor("a", { big })] }], ["b", { components: [motor("b", { big })] }]);
    await expect(mergeFragments(part({ fragments: ["a", "b"] }), lookup)).rejects.toThrow(/with its fragments the config would be \d+ characters long/);
  });

  it("gives svc-server a config it runs as it is; one still listing fragments is run with warnings", async () => {
    const listing = { components: [motor("right")], fragments: ["a"], fragment_mods: [{ fragment_id: "a", mods: [{ $set: { "components.left.attributes.x": 1 } }] }] };
    const merged = await mergeFragments(part(listing), library(["a", { components: [motor("left")] }]));
    expect(parseMachineConfig(merged.config).issues).toEqual([]);
    const unmerged = parseMachineConfig(listing);
    expect(unmerged.issues.filter((i) => i.severity === "error")).toEqual([]);
    expect(unmerged.issues.map((i) => i.path)).toEqual(["fragments[0]", "fragment_mods[0]"]);
    expect(unmerged.config?.components.map((c) => c.name)).toEqual(["right"]);
  });
});
