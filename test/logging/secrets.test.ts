// Secrets in a configuration never reach a log line: masked copies, and config diffs that show a
// secret changed without showing it, unless told to reveal it.
import { describe, expect, it } from "vitest";
import {
  MASK,
  createCollectingSink,
  createLogEngine,
  createManualClock,
  formatConfigDiff,
  maskSecrets,
} from "../../core/index.js";

const config = () => ({
  cloud: { id: "part-1", secret: "s3cr3t", app_address: "https://app.example" },
  auth: { handlers: [{ type: "api-key", config: { key: "k-123", keys: ["k-123", "k-456"] } }] },
  components: [
    { name: "b1", api: "rdk:component:board", attributes: { pin: 12 } },
    { name: "left", api: "rdk:component:motor", attributes: { pins: { a: "11" } } },
  ],
  modules: [{ name: "cam", executable_path: "/opt/cam", env: { CAM_TOKEN: "module-token" } }],
  processes: [{ id: "sync", name: "rsync", env: { RSYNC_PASSWORD: "process-pw" } }],
  agent: {
    network_configuration: { hotspot_password: "hotspot-pw", hotspot_prefix: "svc-setup" },
    additional_networks: { "home net": { type: "wifi", ssid: "home", psk: "wifi-pw" }, lab: { type: "wired" } },
  },
});

describe("secret masking", () => {
  it("masks auth keys, cloud.secret, psk, hotspot_password and the env of modules and processes, and leaves the input alone", () => {
    const original = config();
    const masked = maskSecrets(original);
    expect(masked.cloud).toEqual({ id: "part-1", secret: MASK, app_address: "https://app.example" });
    expect(masked.auth.handlers[0]).toEqual({ type: "api-key", config: MASK });
    expect(masked.agent.network_configuration).toEqual({ hotspot_password: MASK, hotspot_prefix: "svc-setup" });
    expect(masked.agent.additional_networks["home net"]).toEqual({ type: "wifi", ssid: "home", psk: MASK });
    expect(masked.agent.additional_networks.lab).toEqual({ type: "wired" });
    expect(masked.modules[0]!.env).toEqual({ CAM_TOKEN: MASK });
    expect(masked.processes[0]!.env).toEqual({ RSYNC_PASSWORD: MASK });
    expect(masked.components).toEqual(original.components);
    expect(masked.components).not.toBe(original.components);
    expect(original).toEqual(config());
    const text = JSON.stringify(masked);
    for (const secret of ["s3cr3t", "k-123", "k-456", "hotspot-pw", "wifi-pw", "module-token", "process-pw"]) expect(text).not.toContain(secret);
  });
});

describe("config diffs", () => {
  it("print one line per changed value with its path", () => {
    const before = config();
    const after = config();
    after.components[0]!.attributes.pin = 13;
    after.components.push({ name: "right", api: "rdk:component:motor", attributes: { pins: { a: "15" } } });
    after.agent.network_configuration.hotspot_prefix = "robot";
    expect(formatConfigDiff(before, after)).toEqual([
      'components["b1"].attributes.pin: 12 -> 13',
      'components["right"]: (absent) -> {"name":"right","api":"rdk:component:motor","attributes":{"pins":{"a":"15"}}}',
      'agent.network_configuration.hotspot_prefix: "svc-setup" -> "robot"',
    ]);
    expect(formatConfigDiff(before, config())).toEqual([]);
  });

  it("name a process by its id, since its name is its program", () => {
    const before = { processes: [{ id: "a", name: "sleep", args: ["1"] }, { id: "b", name: "sleep", args: ["2"] }] };
    const after = { processes: [{ id: "a", name: "sleep", args: ["1"] }, { id: "b", name: "sleep", args: ["3"] }] };
    expect(formatConfigDiff(before, after)).toEqual(['processes["b"].args[0]: "2" -> "3"']);
  });

  it("show that a secret changed without showing it", () => {
    const before = config();
    const after = config();
    after.cloud.secret = "new-secret";
    after.agent.additional_networks["home net"]!.psk = "new-wifi-pw";
    (after.agent.additional_networks as Record<string, object>).office = { type: "wifi", ssid: "office", psk: "office-pw" };
    delete (after.agent.network_configuration as { hotspot_password?: string }).hotspot_password;
    after.auth.handlers[0]!.config.keys.push("k-789");
    const lines = formatConfigDiff(before, after);
    expect(lines).toEqual([
      "cloud.secret: <redacted> -> <redacted>",
      "auth.handlers[0].config: <redacted> -> <redacted>",
      "agent.network_configuration.hotspot_password: <redacted> -> (absent)",
      'agent.additional_networks["home net"].psk: <redacted> -> <redacted>',
      'agent.additional_networks.office: (absent) -> {"type":"wifi","ssid":"office","psk":"<redacted>"}',
    ]);
    for (const secret of ["new-secret", "new-wifi-pw", "office-pw", "k-789", "hotspot-pw"]) {
      expect(lines.join("\n")).not.toContain(secret);
    }
  });

  it("show secrets as they are with -reveal-sensitive-config-diffs", () => {
    const before = config();
    const after = config();
    after.cloud.secret = "new-secret";
    after.auth.handlers[0]!.config.keys.push("k-789");
    expect(formatConfigDiff(before, after, { reveal: true })).toEqual([
      'cloud.secret: "s3cr3t" -> "new-secret"',
      'auth.handlers[0].config.keys[2]: (absent) -> "k-789"',
    ]);
  });
});

describe("log calls", () => {
  it("never write a field named like a secret, at the top level or one level down", () => {
    const sink = createCollectingSink();
    const engine = createLogEngine({ clock: createManualClock(), sink });
    const fields = { ssid: "home", psk: "wifi-pw", network: { ssid: "lab", psk: "lab-pw" }, list: ["a"] };
    engine.logger("svc.networking").info("joined", fields);
    engine.logger("svc.networking").info("plain", { ssid: "home" });
    expect(sink.entries.map((e) => e.fields)).toEqual([
      { ssid: "home", psk: MASK, network: { ssid: "lab", psk: MASK }, list: ["a"] },
      { ssid: "home" },
    ]);
    expect(fields.psk).toBe("wifi-pw");
  });
});
