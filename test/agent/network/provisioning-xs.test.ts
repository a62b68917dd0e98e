// The provisioning state machine behaves the same in XS as on Node: the scenario and the core's
// agent policy it drives are bundled on their own (platform neutral, refusing any Node builtin),
// loaded into a real XS worker, and the same scenarios run on both sides are compared byte for
// byte.
import { join } from "node:path";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ScenarioInXs } from "../../../tools/xs/scenario-in-xs.js";
import { runProvisioningScenario, type ProvisioningScenarioInput, type ProvisioningScenarioStep } from "./provisioning-scenario.js";

const MIN = 60_000;
const settings = {
  networks: [{ label: "provisioned", priority: 999 }, { label: "office", priority: 10 }, { label: "lab", priority: -2 }],
  requireInternet: true,
  offlineBeforeHotspotMs: 2 * MIN,
  retryConnectionMs: 10 * MIN,
  userIdleMs: 5 * MIN,
  rebootAfterOfflineMs: 45 * MIN,
  hotspot: { ssid: "svc-setup-arm", password: "setup-pass", interface: "wlan0" },
};

const story: ProvisioningScenarioInput = {
  settings,
  start: 1_000,
  steps: [
    { event: { kind: "settings" } },
    { event: { kind: "status", connected: true, connectivity: "full", label: "office" } },
    { advance: 30 * MIN },
    { event: { kind: "status", connected: true, connectivity: "limited", label: "office" } },
    { activated: { ok: false } },
    { activated: { ok: true, connectivity: "portal" } },
    { advance: 2 * MIN },
    { event: { kind: "user-activity" } },
    { advance: 11 * MIN },
    { event: { kind: "submission", label: "provisioned" } },
    { activated: { ok: false } },
    { advance: 16 * MIN },
    { activated: { ok: false } },
    { activated: { ok: false } },
    { activated: { ok: false } },
    { advance: 30 * MIN },
  ],
};

const stepArb: fc.Arbitrary<ProvisioningScenarioStep> = fc.oneof(
  fc.integer({ min: 0, max: 15 * MIN }).map((advance) => ({ advance })),
  fc.record({ ok: fc.boolean(), connectivity: fc.constantFrom("none", "limited", "full" as const) }).map((activated) => ({ activated })),
  fc.record({ connected: fc.boolean(), connectivity: fc.constantFrom("unknown", "none", "portal", "limited", "full" as const), label: fc.constantFrom(null, "office") })
    .map((s) => ({ event: { kind: "status" as const, ...s } })),
  fc.constantFrom<ProvisioningScenarioStep>(
    { event: { kind: "user-activity" } },
    { event: { kind: "submission", label: "provisioned" } },
    { event: { kind: "settings" } },
    { event: { kind: "hotspot-failed" } },
  ),
);

describe("provisioning in XS", () => {
  let xs: ScenarioInXs;
  beforeAll(async () => {
    xs = await ScenarioInXs.start(join(import.meta.dirname, "provisioning-scenario.ts"));
  });
  afterAll(async () => {
    await xs?.close();
  });

  it("gives the same actions and states as Node for a day of losing and finding networks", async () => {
    const node = runProvisioningScenario(story);
    const json = await xs.run("runProvisioningScenario", story);
    expect(json).toBe(JSON.stringify(node));
    expect(node.records.flatMap((r) => r.actions.map((a) => a.kind))).toContain("start-hotspot");
    expect(node.final.name).toBe("rebooting");
  });

  it("gives the same answers as Node for random runs", async () => {
    const runs = fc.sample(fc.array(stepArb, { maxLength: 40 }), { numRuns: 25, seed: 7 });
    for (const steps of runs) {
      const input: ProvisioningScenarioInput = { settings, steps };
      const json = await xs.run("runProvisioningScenario", input);
      expect(json).toBe(JSON.stringify(runProvisioningScenario(input)));
    }
  });
});
