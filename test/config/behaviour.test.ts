// What parseMachineConfig does beyond single fields: JSON and non-object input, resource APIs
// and models, unique names, entries left out while the rest parses, unknown keys, level case,
// parsed and derived values, every problem at once, and issues in document order.
import { describe, expect, it } from "vitest";
import { parseMachineConfig, expandModelName } from "../../core/index.js";
import { error, parse, warning } from "./helpers.js";

describe("input that is not a configuration", () => {
  it.each([
    ['{"components": [}', 'is not valid JSON: unexpected "}" at line 1, column 17'],
    ['{\n  "debug": true,\n}', 'is not valid JSON: unexpected "}" at line 3, column 1'],
    ['{"name": "a\tb"}', 'is not valid JSON: unexpected "\\t" at line 1, column 12'],
    ['{"a": tru}', 'is not valid JSON: unexpected "t" at line 1, column 7'],
    ["", "is not valid JSON: unexpected end of input"],
    ['{"a": [1, 2', "is not valid JSON: unexpected end of input"],
    ["{} {}", 'is not valid JSON: unexpected "{" at line 1, column 4'],
  ])("%j gives no configuration and says where the JSON breaks", (text, message) => {
    expect(parseMachineConfig(text)).toEqual({ config: null, issues: [error("", message)] });
  });

  it.each([
    ["[]", "must be a JSON object (found an array)"],
    ["null", "must be a JSON object (found null)"],
    ['"config"', 'must be a JSON object (found "config")'],
    ["42", "must be a JSON object (found 42)"],
  ])("%s gives no configuration", (text, message) => {
    expect(parseMachineConfig(text)).toEqual({ config: null, issues: [error("", message)] });
  });

  it("takes data as well as text, and treats both alike", () => {
    const data = { components: [{ name: "t", api: "rdk:component:sensor", model: "fake" }], debug: true };
    expect(parseMachineConfig(data)).toEqual(parseMachineConfig(JSON.stringify(data)));
    expect(parseMachineConfig([] as unknown as object).config).toBeNull();
  });

  it("refuses data JSON cannot hold, without throwing", () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(parseMachineConfig(cyclic).issues).toEqual([
      error("", "is not JSON data (it holds a cycle or a value JSON cannot represent)"),
    ]);
  });

  it("accepts a byte order mark before the text", () => {
    expect(parse('\ufeff{"debug": true}').config.debug).toBe(true);
  });

  it("never changes the data it is given", () => {
    const data = { components: [{ name: "m", type: "motor", model: "fake", extra: 1 }], agent: { additional_networks: { n: { type: "wired" } } } };
    const copy = JSON.parse(JSON.stringify(data));
    parseMachineConfig(data);
    expect(data).toEqual(copy);
  });
});

describe("components and services", () => {
  it("builds the API from namespace and type, and expands short model names", () => {
    const { config, issues } = parse({
      components: [
        { name: "m1", type: "motor", model: "fake" },
        { name: "m2", namespace: "acme", type: "motor", model: "acme:demo:wheel" },
        { name: "m3", api: "rdk:component:motor", type: "motor", namespace: "rdk", model: "gpio" },
      ],
      services: [{ name: "nav", type: "navigation" }, { name: "g", api: "acme:service:planner", model: "acme:plan:fast" }],
    });
    expect(issues).toEqual([]);
    expect(config.components.map((c) => [c.api, c.model])).toEqual([
      ["rdk:component:motor", "rdk:builtin:fake"],
      ["acme:component:motor", "acme:demo:wheel"],
      ["rdk:component:motor", "rdk:builtin:gpio"],
    ]);
    // A service without a model gets the built-in one, as existing configurations expect.
    expect(config.services.map((s) => [s.api, s.model])).toEqual([
      ["rdk:service:navigation", "rdk:builtin:builtin"],
      ["acme:service:planner", "acme:plan:fast"],
    ]);
  });

  it("gives every resource the same typed shape, namespace and type folded into api", () => {
    const { config } = parse({ components: [{ name: "b", type: "board", model: "fake", log_configuration: { level: "Debug" } }] });
    expect(config.components[0]).toEqual({
      name: "b",
      api: "rdk:component:board",
      model: "rdk:builtin:fake",
      attributes: {},
      depends_on: [],
      log_configuration: { level: "debug" },
    });
  });

  it("reports api and namespace/type that disagree", () => {
    const { config, issues } = parse({
      components: [
        { name: "a", api: "rdk:component:motor", type: "servo", model: "fake" },
        { name: "b", api: "rdk:component:motor", namespace: "acme", model: "fake" },
      ],
    });
    expect(issues).toEqual([
      error("components[0].type", '"servo" disagrees with api "rdk:component:motor"'),
      error("components[1].namespace", '"acme" disagrees with api "rdk:component:motor"'),
    ]);
    expect(config.components).toEqual([]);
  });

  it("wants a service API in services", () => {
    const { issues } = parse({ services: [{ name: "s", api: "rdk:component:motor" }] });
    expect(issues).toEqual([
      error("services[0].api", 'must be a service API such as "rdk:service:generic" (found "rdk:component:motor")'),
    ]);
  });

  it("keeps names unique per API, the first one winning", () => {
    const { config, issues } = parse({
      components: [
        { name: "board", type: "board", model: "fake" },
        { name: "left", type: "motor", model: "fake" },
        { name: "left", type: "encoder", model: "fake" },
        { name: "left", api: "rdk:component:motor", model: "gpio" },
      ],
    });
    expect(issues).toEqual([error("components[3].name", '"left" is already used by components[1] (rdk:component:motor)')]);
    expect(config.components.map((c) => `${c.api}/${c.name}`)).toEqual([
      "rdk:component:board/board",
      "rdk:component:motor/left",
      "rdk:component:encoder/left",
    ]);
  });

  it("does not count a broken entry as holding its name", () => {
    const { config, issues } = parse({
      components: [
        { name: "left", type: "motor", model: "fake", attributes: 5 },
        { name: "left", type: "motor", model: "fake" },
      ],
    });
    expect(issues).toEqual([error("components[0].attributes", "must be an object (found 5)")]);
    expect(config.components).toHaveLength(1);
  });

  it("leaves out broken entries and parses the rest, reporting positions as written", () => {
    const { config, issues } = parse({
      components: [
        7,
        { name: "ok1", type: "sensor", model: "fake" },
        { name: "bad name", type: "sensor", model: "fake" },
        { name: "ok2", type: "sensor", model: "fake" },
        { name: "ok2", type: "sensor", model: "fake" },
      ],
    });
    expect(issues).toEqual([
      error("components[0]", "must be an object (found 7)"),
      error("components[2].name", 'must be a name of letters, digits, "_" and "-" (found "bad name")'),
      error("components[4].name", '"ok2" is already used by components[3] (rdk:component:sensor)'),
    ]);
    expect(config.components.map((c) => c.name)).toEqual(["ok1", "ok2"]);
  });

  it("exports the model expansion for other parts", () => {
    expect(expandModelName("fake")).toBe("rdk:builtin:fake");
    expect(expandModelName("acme:demo:wheel")).toBe("acme:demo:wheel");
  });
});

describe("modules", () => {
  it("needs a module id for registry modules and follows the newest release by default", () => {
    const { config, issues } = parse({
      modules: [
        { type: "registry", name: "cam", module_id: "acme:camera" },
        { type: "registry", name: "pinned", module_id: "acme:camera", version: "1.2.3" },
        { type: "registry", name: "nope" },
      ],
    });
    expect(issues).toEqual([
      error("modules[2].module_id", 'is required for a registry module: an id shaped "<namespace>:<name>"'),
    ]);
    expect(config.modules.map((m) => [m.name, m.version])).toEqual([
      ["cam", "latest"],
      ["pinned", "1.2.3"],
    ]);
  });

  it("keeps module names unique", () => {
    const { config, issues } = parse({
      modules: [
        { name: "m", executable_path: "/a" },
        { name: "m", executable_path: "/b" },
      ],
    });
    expect(issues).toEqual([error("modules[1].name", '"m" is already used by modules[0]')]);
    expect(config.modules).toEqual([
      { type: "local", name: "m", executable_path: "/a", log_level: "", env: {}, module_id: "", version: "", startup_timeout: "5m", startup_timeout_ms: 300000, first_run_timeout: "1h", first_run_timeout_ms: 3600000 },
    ]);
  });
});

describe("log levels", () => {
  it("are read in any case", () => {
    const { config, issues } = parse({
      components: [{ name: "m", type: "motor", model: "fake", log_configuration: { level: "Debug" } }],
      modules: [{ name: "mod", executable_path: "/x", log_level: "WARN" }],
      log: [{ pattern: "rdk.*", level: "Error" }],
    });
    expect(issues).toEqual([]);
    expect(config.components[0]!.log_configuration).toEqual({ level: "debug" });
    expect(config.modules[0]!.log_level).toBe("warn");
    expect(config.log).toEqual([{ pattern: "rdk.*", level: "error" }]);
  });

  it("report an unknown level as written", () => {
    const { issues } = parse({ log: [{ pattern: "rdk.*", level: "Verbose" }] });
    expect(issues).toEqual([error("log[0].level", 'must be one of "debug", "info", "warn", "error" (found "Verbose")')]);
  });
});

describe("unknown keys", () => {
  it("are warnings, never silent, and are left out of the configuration", () => {
    const { config, issues } = parse({
      remotes_list: [],
      components: [{ name: "m", type: "motor", model: "fake", framing: {} }],
      agent: { advanced_settings: { debug: true, verbose: true }, version_control: { "viam-server": "stable" } },
    });
    expect(issues).toEqual([
      warning("remotes_list", 'unknown key "remotes_list" (ignored)'),
      warning("components[0].framing", 'unknown key "framing" (ignored)'),
      warning("agent.advanced_settings.verbose", 'unknown key "verbose" (ignored)'),
      warning("agent.version_control.viam-server", 'unknown key "viam-server" (ignored)'),
    ]);
    expect(config.components).toHaveLength(1);
    expect(config.agent.advanced_settings.debug).toBe(true);
    expect(Object.keys(config)).not.toContain("remotes_list");
    expect(config.agent.advanced_settings).not.toHaveProperty("verbose");
  });

  it("are quoted in paths when they are not plain names", () => {
    const { issues } = parse({ "my key": 1, agent: { additional_networks: { "home wifi": { type: "wired", extra: 1 } } } });
    expect(issues).toEqual([
      warning('["my key"]', 'unknown key "my key" (ignored)'),
      warning('agent.additional_networks["home wifi"].extra', 'unknown key "extra" (ignored)'),
    ]);
  });

  it("are harmless even when named like Object internals", () => {
    const { config, issues } = parse('{"__proto__": {"debug": true}, "agent": {"additional_networks": {"__proto__": {"type": "wired"}}}}');
    expect(issues).toEqual([warning('__proto__', 'unknown key "__proto__" (ignored)')]);
    expect(config.debug).toBe(false);
    expect(Object.getPrototypeOf(config.agent.additional_networks)).toBe(Object.prototype);
    expect(Object.keys(config.agent.additional_networks)).toEqual(["__proto__"]);
  });
});

describe("network and auth", () => {
  it("needs both TLS files or neither, and never runs without the TLS it was asked for", () => {
    const both = parse({ network: { tls_cert_file: "/c.pem", tls_key_file: "/k.pem" } });
    expect(both.issues).toEqual([]);
    expect(both.config.network.tls_cert_file).toBe("/c.pem");
    for (const [given, missing] of [["tls_cert_file", "tls_key_file"], ["tls_key_file", "tls_cert_file"]] as const) {
      const one = parseMachineConfig({ network: { [given]: "/c.pem" } });
      expect(one.config).toBeNull();
      expect(one.issues).toEqual([
        error("", "is refused whole: its TLS settings must be usable exactly as written (see the TLS errors)"),
        error(`network.${missing}`, `is required when ${given} is set`),
      ]);
    }
  });

  it("takes one api-key handler and warns when it holds no key (a second one refuses the whole file)", () => {
    const { config, issues } = parse({ auth: { handlers: [{ type: "api-key", config: {} }] } });
    expect(issues).toEqual([warning("auth.handlers[0].config", "has no keys, so no API key is accepted")]);
    expect(config.auth.handlers).toEqual([{ type: "api-key", config: {} }]);
    const two = parseMachineConfig({ auth: { handlers: [{ type: "api-key", config: {} }, { type: "api-key", config: { id: "key" } }] } });
    expect(two.config).toBeNull();
    expect(two.issues).toContainEqual(error("auth.handlers[1].type", '"api-key" is already configured by auth.handlers[0]'));
  });

  it("never echoes secrets in messages", () => {
    const { issues } = parseMachineConfig({
      cloud: { id: "p", secret: 12345 },
      auth: { handlers: [{ type: "api-key", config: { id: 987654 } }] },
      agent: {
        network_configuration: { hotspot_password: "abc" },
        additional_networks: { n: { type: "wifi", ssid: "s", psk: "hunter2" } },
      },
    });
    const text = issues.map((i) => i.message).join("\n");
    for (const secret of ["12345", "987654", "abc", "hunter2"]) expect(text).not.toContain(secret);
    // Four problems, and the auth one refuses the file whole.
    expect(issues).toHaveLength(5);
  });

  it("reads the cloud credentials and the refresh interval in milliseconds", () => {
    const { config } = parse({ cloud: { id: "part", secret: "s", app_address: "https://app.example.com", refresh_interval: "1m30s" } });
    expect(config.cloud).toEqual({
      id: "part",
      secret: "s",
      app_address: "https://app.example.com",
      refresh_interval: "1m30s",
      refresh_interval_ms: 90_000,
    });
    expect(parse({ cloud: { id: "p", secret: "s" } }).config.cloud?.refresh_interval_ms).toBe(10_000);
    expect(parse({}).config.cloud).toBeUndefined();
  });
});

describe("agent networks and system settings", () => {
  it("uses the usual route metric for each network type when it is 0", () => {
    const { config } = parse({
      agent: {
        additional_networks: {
          cable: { type: "wired" },
          air: { type: "wifi", ssid: "air" },
          pinned: { type: "wired", ipv4_route_metric: 7 },
        },
      },
    });
    const metrics = Object.entries(config.agent.additional_networks).map(([k, n]) => [k, n.ipv4_route_metric]);
    expect(metrics).toEqual([["cable", 100], ["air", 600], ["pinned", 7]]);
  });

  it("fills every field of a network", () => {
    const { config } = parse({ agent: { additional_networks: { lab: { type: "wired", ipv4_address: "10.1.2.3/24", ipv4_gateway: "10.1.2.1", ipv4_dns: ["10.1.2.1"], priority: 20 } } } });
    expect(config.agent.additional_networks.lab).toEqual({
      type: "wired",
      interface: "",
      ssid: "",
      psk: "",
      priority: 20,
      ipv4_address: "10.1.2.3/24",
      ipv4_gateway: "10.1.2.1",
      ipv4_dns: ["10.1.2.1"],
      ipv4_route_metric: 100,
    });
  });

  it("says an SSID or passkey on a wired network is ignored", () => {
    const { config, issues } = parse({ agent: { additional_networks: { eth: { type: "wired", ssid: "x", psk: "password1" } } } });
    expect(issues).toEqual([
      warning("agent.additional_networks.eth.ssid", "is only for wifi networks (ignored)"),
      warning("agent.additional_networks.eth.psk", "is only for wifi networks (ignored)"),
    ]);
    expect(config.agent.additional_networks.eth).toMatchObject({ ssid: "", psk: "" });
  });

  it.each([
    ["", { all: false, include: [], exclude: [] }, []],
    ["all", { all: true, include: [], exclude: [] }, []],
    ["all,-gdm, -tailscaled", { all: true, include: [], exclude: ["gdm", "tailscaled"] }, []],
    ["kernel,NetworkManager,kernel", { all: false, include: ["kernel", "NetworkManager"], exclude: [] }, []],
    ["kernel,-gdm", { all: false, include: ["kernel"], exclude: [] }, [warning("agent.system_configuration.forward_system_logs", 'excluding ("-gdm") has no effect without "all"')]],
    ["all,kernel", { all: true, include: [], exclude: [] }, [warning("agent.system_configuration.forward_system_logs", '"all" already forwards "kernel"')]],
    ["all,-", { all: true, include: [], exclude: [] }, [error("agent.system_configuration.forward_system_logs", '"-" is not an identifier to exclude; the item is ignored')]],
  ])("parses forward_system_logs %j", (text, parsed, issues) => {
    const result = parse({ agent: { system_configuration: { forward_system_logs: text } } });
    expect(result.config.agent.system_configuration.forward_system_logs).toEqual(parsed);
    expect(result.issues).toEqual(issues);
  });

  it("reports a forward_system_logs list it cannot read", () => {
    const { config, issues } = parse({ agent: { system_configuration: { forward_system_logs: "kernel gdm" } } });
    expect(issues).toEqual([
      error(
        "agent.system_configuration.forward_system_logs",
        'must be a comma-separated list of syslog identifiers ("-" before one excludes it, "all" means every one) (found "kernel gdm")',
      ),
    ]);
    expect(config.agent.system_configuration.forward_system_logs).toEqual({ all: false, include: [], exclude: [] });
  });
});

describe("issues", () => {
  it("are all reported at once, in the order of the document", () => {
    const { config, issues } = parse(`{
      "log": [{"pattern": "rdk.*", "level": "loud"}],
      "components": [
        {"name": "a", "type": "motor", "model": "fake"},
        {"name": "b", "type": "motor", "model": "fake", "attributes": []},
        {"name": "a", "type": "motor", "model": "fake"}
      ],
      "debug": "no",
      "agent": {"additional_networks": {"home": {"type": "wifi", "ssid": "h", "priority": 1000}}},
      "maintenance": {"sensor_name": "rdk:component:sensor/gate"}
    }`);
    expect(issues).toEqual([
      error("log[0].level", 'must be one of "debug", "info", "warn", "error" (found "loud")'),
      error("components[1].attributes", "must be an object (found an array)"),
      error("components[2].name", '"a" is already used by components[0] (rdk:component:motor)'),
      error("debug", 'must be true or false (found "no")'),
      error("agent.additional_networks.home.priority", "must be a whole number from -999 to 999 (found 1000)"),
      error("maintenance.maintenance_allowed_key", "is required: a non-empty string"),
    ]);
    expect(config.components.map((c) => c.name)).toEqual(["a"]);
    expect(config.debug).toBe(false);
    expect(config.maintenance).toBeUndefined();
  });

  it("come out the same on every call", () => {
    const text = '{"components": [{"name": "x y", "zzz": 1, "model": 5}], "b": 1, "a": 2}';
    expect(JSON.stringify(parseMachineConfig(text))).toBe(JSON.stringify(parseMachineConfig(text)));
  });
});
