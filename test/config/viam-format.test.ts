// A configuration written for viam-server: the keys svc-server acts on (global_log_configuration,
// disable_partial_start, network.sessions) are honoured, and the ones it does not act on are
// named entry by entry with the reason, never reported as unknown and never silently dropped
// when they ask for something.
import { describe, expect, it } from "vitest";
import { parseMachineConfig } from "../../core/index.js";
import { error, parse, warning } from "./helpers.js";

describe("Viam's keys", () => {
  it("are named per entry with the reason, and left out of the configuration", () => {
    const { config, issues } = parse({
      packages: [{ name: "detector", package: "org/detector", type: "ml_model", version: "latest" }],
      jobs: [{ name: "nightly", schedule: "0 3 * * *", resource: "cam", method: "DoCommand" }],
      remotes: [{ name: "arm-pi", address: "arm-pi.local:8080", frame: { parent: "world" }, managed_by: "", secret: "" }],
      tracing: { enabled: true, console: true },
      enable_web_profile: true,
      network: { traffic_tunnel_endpoints: [{ port: 22 }] },
      components: [{ name: "cam", type: "camera", model: "fake", service_configs: [{ type: "data_manager", attributes: {} }] }],
      modules: [{ name: "mod", executable_path: "/opt/mod", first_run_timeout: "1h" }],
    });
    expect(issues).toEqual([
      warning("packages[0]", '"detector" is not acted on: svc-server fetches no packages besides registry modules'),
      warning("jobs[0]", '"nightly" is not acted on: svc-server runs no scheduled jobs'),
      warning("remotes[0].frame", "is not acted on: svc-server does not join a remote's frames to its own frame system"),
      warning("tracing", "is not acted on: svc-server records no traces"),
      warning("enable_web_profile", "is not acted on: svc-server serves its profile with its -webprofile flag"),
      warning("network.traffic_tunnel_endpoints[0]", "is not acted on: svc-server tunnels no traffic"),
      warning("components[0].service_configs[0]", '"data_manager" is not acted on: svc-server captures no data'),
    ]);
    expect(config.components).toHaveLength(1);
    expect(config.components[0]).not.toHaveProperty("service_configs");
    expect(config.modules).toHaveLength(1);
    expect(config.remotes.map((r) => r.url)).toEqual(["https://arm-pi.local:8080"]);
    expect(Object.keys(config)).not.toContain("packages");
  });

  it("take a module's first_run_timeout as a duration or as Go's nanoseconds", () => {
    const { config } = parse({ modules: [{ name: "a", executable_path: "/a", first_run_timeout: "10m" }, { name: "b", executable_path: "/b", first_run_timeout: 90e9 }] });
    expect(config.modules.map((m) => [m.first_run_timeout, m.first_run_timeout_ms])).toEqual([["10m", 600_000], ["90s", 90_000]]);
  });

  it("say nothing when they ask for nothing: a revision, tracing off, empty lists", () => {
    const { issues } = parse({ revision: "r1", tracing: { enabled: false }, enable_web_profile: false, packages: [], jobs: [] });
    expect(issues).toEqual([]);
  });
});

describe("global_log_configuration", () => {
  it("is read with its models in full and its levels in any case, a broken entry left out with its path", () => {
    const { config, issues } = parse({
      global_log_configuration: [
        { api: "rdk:component:motor", model: "fake", level: "Debug" },
        { api: "rdk:component:board", level: "warn" },
        { api: "motor", level: "info" },
        { api: "rdk:component:servo", level: "loud" },
      ],
    });
    expect(config.global_log_configuration).toEqual([
      { api: "rdk:component:motor", model: "rdk:builtin:fake", level: "debug" },
      { api: "rdk:component:board", level: "warn" },
    ]);
    expect(issues.map((i) => i.path)).toEqual(["global_log_configuration[2].api", "global_log_configuration[3].level"]);
  });
});

describe("disable_partial_start", () => {
  const broken = { components: [{ name: "ok", type: "sensor", model: "fake" }, { name: "bad name", type: "sensor", model: "fake" }] };

  it("refuses the whole configuration when a component cannot be used", () => {
    const { config, issues } = parseMachineConfig({ ...broken, disable_partial_start: true });
    expect(config).toBeNull();
    expect(issues).toContainEqual(error("components[1].name", 'must be a name of letters, digits, "_" and "-" (found "bad name")'));
    expect(issues).toContainEqual(
      error("", "is refused whole: disable_partial_start asks that every component and service be usable (see the errors under components and services)"),
    );
  });

  it("without it, starts what can start", () => {
    const { config } = parseMachineConfig(broken);
    expect(config!.components.map((c) => c.name)).toEqual(["ok"]);
  });
});

describe("network.sessions.heartbeat_window", () => {
  it("is read as milliseconds, within Viam's bounds", () => {
    expect(parse({ network: { sessions: { heartbeat_window: "250ms" } } }).config.network.sessions).toEqual({
      heartbeat_window: "250ms",
      heartbeat_window_ms: 250,
    });
  });
});
