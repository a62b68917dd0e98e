import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AGENT_RANGES, NETWORK_RANGES, agentConfigAsLayer, mergeAgentLayers, parseMachineConfig } from "../../../core/index.js";
import { ScenarioInXs } from "../../../tools/xs/scenario-in-xs.js";

const builtIn = parseMachineConfig({}).config!.agent;

describe("mergeAgentLayers", () => {
  it("gives the built-in defaults when no layer sets anything", () => {
    const merged = mergeAgentLayers([{ source: "manufacturer defaults", agent: undefined }, { source: "flags", agent: null }]);
    expect(merged.agent).toEqual(builtIn);
    expect(merged.warnings).toEqual([]);
  });

  it("lets each layer win over the one below, key by key", () => {
    const merged = mergeAgentLayers([
      { source: "manufacturer defaults", agent: { network_configuration: { hotspot_prefix: "acme", user_idle_minutes: 7 }, advanced_settings: { debug: true } } },
      { source: "machine config", agent: { network_configuration: { user_idle_minutes: 9 }, version_control: { "svc-server": "1.2.3" } } },
      { source: "flags", agent: { advanced_settings: { wait_for_update_check: true } } },
      { source: "environment", agent: { advanced_settings: { debug: false } } },
    ]);
    expect(merged.warnings).toEqual([]);
    expect(merged.agent.network_configuration.hotspot_prefix).toBe("acme");
    expect(merged.agent.network_configuration.user_idle_minutes).toBe(9);
    expect(merged.agent.version_control).toEqual({ agent: "stable", "svc-server": "1.2.3" });
    expect(merged.agent.advanced_settings).toEqual({ ...builtIn.advanced_settings, debug: false, wait_for_update_check: true });
  });

  it("merges additional networks by label, a later network replacing the whole earlier one", () => {
    const merged = mergeAgentLayers([
      { source: "manufacturer defaults", agent: { additional_networks: { home: { type: "wifi", ssid: "home", psk: "password1", priority: 5 }, lab: { type: "wired", interface: "eth0" } } } },
      { source: "machine config", agent: { additional_networks: { home: { type: "wired", interface: "eth1" } } } },
    ]);
    expect(Object.keys(merged.agent.additional_networks).sort()).toEqual(["home", "lab"]);
    expect(merged.agent.additional_networks.home).toMatchObject({ type: "wired", interface: "eth1", ssid: "", priority: 0, ipv4_route_metric: 100 });
    expect(merged.agent.additional_networks.lab).toMatchObject({ type: "wired", interface: "eth0" });
  });

  it("clamps values out of range, naming the layer and the key", () => {
    const merged = mergeAgentLayers([
      {
        source: "manufacturer defaults",
        agent: {
          network_configuration: { device_reboot_after_offline_minutes: -3, user_idle_minutes: -3, retry_connection_timeout_minutes: 10_000_000 },
          advanced_settings: { viam_server_start_timeout_minutes: 0 },
          system_configuration: { logging_journald_runtime_max_use_megabytes: -7 },
          additional_networks: { "lab.2": { type: "wired", priority: 5000 } },
        },
      },
    ]);
    expect(merged.warnings).toEqual([
      "manufacturer defaults: advanced_settings.viam_server_start_timeout_minutes: 0 is below 1; using 1",
      "manufacturer defaults: network_configuration.device_reboot_after_offline_minutes: -3 is below 0; using 0",
      "manufacturer defaults: network_configuration.retry_connection_timeout_minutes: 10000000 is above 525600; using 525600",
      "manufacturer defaults: network_configuration.user_idle_minutes: -3 is below 1; using 1",
      "manufacturer defaults: system_configuration.logging_journald_runtime_max_use_megabytes: -7 is below -1; using -1",
      'manufacturer defaults: additional_networks["lab.2"].priority: 5000 is above 999; using 999',
    ]);
    expect(merged.agent.network_configuration).toMatchObject({ device_reboot_after_offline_minutes: 0, user_idle_minutes: 1, retry_connection_timeout_minutes: 525600 });
    expect(merged.agent.advanced_settings.viam_server_start_timeout_minutes).toBe(1);
    expect(merged.agent.system_configuration.logging_journald_runtime_max_use_megabytes).toBe(-1);
    expect(merged.agent.additional_networks["lab.2"]!.priority).toBe(999);
  });

  it("ignores a value of the wrong type with a warning, keeping the layer below", () => {
    const merged = mergeAgentLayers([
      { source: "manufacturer defaults", agent: { advanced_settings: { debug: true, viam_server_start_timeout_minutes: 3 }, system_configuration: { os_auto_upgrade_type: "security" } } },
      {
        source: "machine config /etc/svc.json",
        agent: {
          advanced_settings: { debug: "yes", viam_server_start_timeout_minutes: 2.5 },
          system_configuration: { os_auto_upgrade_type: "weekly" },
          version_control: { agent: "latest" },
          network_configuration: "none",
          colour: "blue",
        },
      },
    ]);
    expect(merged.agent.advanced_settings.debug).toBe(true);
    expect(merged.agent.advanced_settings.viam_server_start_timeout_minutes).toBe(3);
    expect(merged.agent.system_configuration.os_auto_upgrade_type).toBe("security");
    expect(merged.agent.version_control.agent).toBe("stable");
    expect(merged.agent.network_configuration).toEqual(builtIn.network_configuration);
    expect(merged.warnings).toHaveLength(6);
    expect(merged.warnings).toContain('machine config /etc/svc.json: advanced_settings.debug: must be true or false (found "yes")');
    expect(merged.warnings).toContain('machine config /etc/svc.json: colour: unknown key "colour" (ignored)');
    for (const warning of merged.warnings) expect(warning.startsWith("machine config /etc/svc.json: ")).toBe(true);
  });

  it("keeps the lower layer's network when a later one of the same label is unusable, without echoing its passkey", () => {
    const merged = mergeAgentLayers([
      { source: "manufacturer defaults", agent: { additional_networks: { home: { type: "wifi", ssid: "home", psk: "goodpassword" } } } },
      { source: "machine config", agent: { additional_networks: { home: { type: "wifi", ssid: "home", psk: "short" }, extra: { type: "wifi", ssid: "x", psk: "abcdefgh", ipv4_dns: ["nope"] } } } },
    ]);
    expect(merged.agent.additional_networks.home!.psk).toBe("goodpassword");
    expect(merged.agent.additional_networks.extra).toBeUndefined();
    expect(merged.warnings.join("\n")).not.toContain("short");
    expect(merged.warnings.some((w) => w.startsWith("machine config: additional_networks.home.psk: "))).toBe(true);
  });

  it("keeps an explicit empty forward_system_logs over a lower layer's list", () => {
    const merged = mergeAgentLayers([
      { source: "manufacturer defaults", agent: { system_configuration: { forward_system_logs: "all,-kernel" } } },
      { source: "machine config", agent: { system_configuration: { forward_system_logs: "" } } },
    ]);
    expect(merged.agent.system_configuration.forward_system_logs).toEqual({ all: false, include: [], exclude: [] });
    const under = mergeAgentLayers([{ source: "cache", agent: { system_configuration: { forward_system_logs: "all,-kernel" } } }]);
    expect(mergeAgentLayers([{ source: "again", agent: agentConfigAsLayer(under.agent) }]).agent).toEqual(under.agent);
  });

  it("clamps to the same bounds as the configuration schema", () => {
    const schema = JSON.parse(readFileSync(join(import.meta.dirname, "../../../core/config/schema.json"), "utf8"));
    const defs = schema.definitions;
    const sectionDefs: Record<string, string> = { advanced_settings: "advancedSettings", network_configuration: "networkConfiguration", system_configuration: "systemConfiguration" };
    const bounds = (node: { $ref?: string; minimum?: number; maximum?: number }) => {
      const target = node.$ref ? defs[node.$ref.split("/").pop()!] : node;
      return { min: target.minimum, max: target.maximum };
    };
    for (const [section, keys] of Object.entries(AGENT_RANGES)) {
      for (const [key, range] of Object.entries(keys)) expect(range, `${section}.${key}`).toEqual(bounds(defs[sectionDefs[section]!].properties[key]));
    }
    for (const [key, range] of Object.entries(NETWORK_RANGES)) expect(range, key).toEqual(bounds(defs.additionalNetwork.properties[key]));
    // Every bounded integer of the agent's sections is covered.
    for (const [section, def] of Object.entries(sectionDefs)) {
      for (const [key, node] of Object.entries(defs[def].properties as Record<string, { $ref?: string }>)) {
        if (bounds(node).min !== undefined) expect(AGENT_RANGES[section]?.[key], `${section}.${key}`).toBeDefined();
      }
    }
  });
});

describe("mergeAgentLayers in XS", () => {
  let xs: ScenarioInXs;
  beforeAll(async () => {
    // The agent's policy is bundled on its own: it is part of the core, not of the MCU's bundle.
    xs = await ScenarioInXs.start(join(import.meta.dirname, "../../../core/agent/index.ts"));
  });
  afterAll(() => xs?.close());

  it("gives the same result as Node", async () => {
    const layers = [
      { source: "manufacturer defaults", agent: { network_configuration: { user_idle_minutes: -3, hotspot_prefix: "acme" }, additional_networks: { a: { type: "wired", priority: -5000 } } } },
      { source: "machine config", agent: { advanced_settings: { debug: "no" }, system_configuration: { forward_system_logs: "all,-cron" } } },
    ];
    const json = await xs.run("mergeAgentLayers", layers);
    expect(json).toBe(JSON.stringify(mergeAgentLayers(layers)));
  });
});
