// Property: whatever is done to a valid configuration (keys deleted, types changed, junk
// inserted, huge numbers, nested garbage), parseMachineConfig never throws and always answers
// with a configuration (or null) and a list of well-formed issues.
import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { frameSystemOf, parseMachineConfig, type MachineConfig } from "../../core/index.js";
import { mutate, mutation, valid } from "./mutation-arbitraries.js";

function checkOutcome(result: ReturnType<typeof parseMachineConfig>): void {
  expect(Array.isArray(result.issues)).toBe(true);
  for (const issue of result.issues) {
    expect(Object.keys(issue).sort()).toEqual(["message", "path", "severity"]);
    expect(typeof issue.path).toBe("string");
    expect(issue.message.length).toBeGreaterThan(0);
    expect(["error", "warning"]).toContain(issue.severity);
  }
  if (result.config === null) {
    expect(result.issues.some((i) => i.severity === "error")).toBe(true);
    return;
  }
  checkConfig(result.config);
}

// What downstream code relies on, whatever the input was.
function checkConfig(config: MachineConfig): void {
  for (const list of [config.components, config.services]) {
    for (const r of list) {
      expect(r.name).toMatch(/^[A-Za-z0-9_-]+$/);
      expect(r.api).toMatch(/^[\w-]+:(component|service):[\w-]+$/);
      expect(r.model).toMatch(/^[\w-]+:[\w-]+:[\w-]+$/);
      expect(Array.isArray(r.depends_on)).toBe(true);
    }
  }
  // Every frame that survives parsing has its place in the tree.
  expect(frameSystemOf(config.components).frames).toHaveLength(config.components.filter((c) => c.frame).length);
  const names = [...config.components, ...config.services].map((r) => `${r.api}/${r.name}`);
  expect(new Set(names).size).toBe(names.length);
  expect(new Set(config.modules.map((m) => m.name)).size).toBe(config.modules.length);
  for (const rule of config.log) expect(["debug", "info", "warn", "error"]).toContain(rule.level);
  for (const network of Object.values(config.agent.additional_networks)) {
    expect(network.priority).toBeGreaterThanOrEqual(-999);
    expect(network.priority).toBeLessThanOrEqual(999);
    expect(network.ipv4_route_metric).toBeGreaterThan(0);
  }
  expect(typeof config.agent.advanced_settings.viam_server_start_timeout_minutes).toBe("number");
  expect(typeof config.network.bind_address).toBe("string");
  expect(typeof config.debug).toBe("boolean");
}

describe("parseMachineConfig under random mutations", () => {
  it("accepts the unmutated configuration without issues", () => {
    const { config, issues } = parseMachineConfig(valid as object);
    expect(issues).toEqual([]);
    checkConfig(config!);
  });

  it("never throws and always gives config-or-null plus issues (data input)", () => {
    fc.assert(
      fc.property(fc.array(mutation, { minLength: 1, maxLength: 6 }), (mutations) => {
        const input = mutate(valid, mutations);
        const before = JSON.stringify(input);
        const result = parseMachineConfig(input as object);
        checkOutcome(result);
        expect(JSON.stringify(input)).toBe(before);
      }),
      { numRuns: 400 },
    );
  });

  it("never throws on text, whole or cut anywhere", () => {
    const text = JSON.stringify(valid, null, 2);
    fc.assert(
      fc.property(fc.nat({ max: text.length }), fc.nat({ max: text.length }), fc.string(), (from, to, inserted) => {
        const broken = text.slice(0, Math.min(from, to)) + inserted + text.slice(Math.max(from, to));
        checkOutcome(parseMachineConfig(broken));
      }),
      { numRuns: 300 },
    );
  });

  it("survives very deep nesting", () => {
    const deep = `{"components": [{"name": "d", "type": "x", "model": "fake", "attributes": ${"[".repeat(5000)}${"]".repeat(5000)}}]}`;
    checkOutcome(parseMachineConfig(deep));
    checkOutcome(parseMachineConfig("[".repeat(100000)));
  });
});
