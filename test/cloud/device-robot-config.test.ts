// svc's config as Viam's RobotConfig: every example and Viam-format fixture converts with every
// key either in its proto field or named as having none; the shapes plain fromJson cannot take
// (durations, module paths, orientations, the maintenance sensor, geometries) land where Viam's
// clients read them; svc-cloud's own `cloud` replaces the stored one.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fromBinary, toBinary } from "@bufbuild/protobuf";
import { describe, expect, it } from "vitest";
import { encodingOf } from "../../node/rpc/encoded-answer.js";
import { ConfigResponseSchema, RobotConfigSchema } from "../../proto/gen/app/v1/robot_pb.js";
import { configAnswer, toPartlessConfig, toRobotConfig, type PartCloud } from "../../targets/cloud/fleet/robot-config.js";
import { tablesBySchemaDefinition } from "../../targets/cloud/fleet/robot-config-tables.js";

const root = join(import.meta.dirname, "../..");
const cloud: PartCloud = { id: "part-1", fqdn: "a.b.example", local_fqdn: "a.b.local.example", location_id: "loc", primary_org_id: "org", machine_id: "m" };

/** The fixture's JSON, with its test-time placeholders filled. */
function readConfig(file: string): Record<string, unknown> {
  const text = readFileSync(file, "utf8").replace(/"\$\{[A-Z_]+\}"/g, '"localhost:8080"').replace(/\$\{[A-Z_]+\}/g, "100");
  return JSON.parse(text) as Record<string, unknown>;
}

const files = [
  ...readdirSync(join(root, "examples")).filter((f) => f.endsWith(".json")).map((f) => join(root, "examples", f)),
  ...readdirSync(join(root, "test/fixtures/viam-format")).map((f) => join(root, "test/fixtures/viam-format", f)),
];

/** Every key the tables say has no field, as the last part of a path. */
const keysWithoutField = new Set(Object.values(tablesBySchemaDefinition).flatMap((t) => Object.entries(t).filter(([, f]) => "none" in f).map(([k]) => k)));

describe("a part's Config answer", () => {
  it.each(files)("from %s, carries bytes that decode to exactly the answer", (file) => {
    const { config: partless } = toPartlessConfig(readConfig(file));
    const answer = configAnswer(partless, toBinary(RobotConfigSchema, partless), cloud, "7");
    expect(answer.config).toEqual(toRobotConfig(readConfig(file), cloud, "7").config);
    expect(fromBinary(ConfigResponseSchema, encodingOf(answer)!)).toEqual(answer);
  });
});

describe("toRobotConfig", () => {
  it.each(files)("converts %s, leaving out only keys that have no field", (file) => {
    const stored = readConfig(file);
    const { config, leftOut } = toRobotConfig(stored, cloud, "7");
    for (const path of leftOut) expect(keysWithoutField).toContain(path.replace(/.*[.\]]/, "").replace(/^\[?/, ""));
    expect(config.components.map((c) => c.name)).toEqual(((stored.components ?? []) as { name: string }[]).map((c) => c.name));
    expect(config.services.length).toBe(((stored.services ?? []) as unknown[]).length);
    expect(config.revision).toBe("7");
    expect(config.cloud).toMatchObject({ id: "part-1", fqdn: "a.b.example", secret: "" });
    // What is served survives the wire.
    expect(fromBinary(RobotConfigSchema, toBinary(RobotConfigSchema, config))).toEqual(config);
  });

  it("maps the parts of Viam's format that differ from the proto", () => {
    const { config, leftOut } = toRobotConfig(readConfig(join(root, "test/fixtures/viam-format/compat-machine.json")), cloud, "3");
    expect(leftOut).toEqual(["global_log_configuration"]);
    const camera = config.components.find((c) => c.name === "camera1")!;
    expect(camera.frame?.orientation?.type).toEqual({ case: "vectorDegrees", value: expect.objectContaining({ theta: 90, z: 1 }) });
    expect(camera.serviceConfigs[0]?.type).toBe("data_manager");
    expect(config.modules[0]).toMatchObject({ name: "counter", path: "localhost:8080", logLevel: "info", env: { COUNTER_START: "0" } });
    expect(config.processes.map((p) => p.stopSignal)).toEqual([0, 2]);
    expect(config.network?.sessions?.heartbeatWindow).toMatchObject({ seconds: 2n });
    expect(config.packages[0]).toMatchObject({ package: "acme/detector", version: "latest" });
    expect(config.jobs[0]).toMatchObject({ schedule: "0 3 * * *", method: "GetReadings" });
    expect(config.disablePartialStart).toBe(true);
  });

  it("converts durations, the maintenance sensor, geometries and auth handlers", () => {
    const stored = {
      modules: [{ name: "m", executable_path: "/bin/m", first_run_timeout: "1m30s", version: "1.2.3", startup_timeout: "5m" }],
      processes: [{ id: "p", name: "sleep", stop_timeout: "500ms", stop_signal: "SIGKILL" }],
      maintenance: { sensor_name: "rdk:component:sensor/door", maintenance_allowed_key: "ok" },
      components: [
        {
          name: "arm",
          api: "rdk:component:arm",
          model: "fake",
          frame: {
            parent: "world",
            orientation: { type: "euler_angles", value: { yaw: 1.5 } },
            geometry: { type: "box", x: 10, y: 20, z: 30, translation: { x: 1 }, orientation: { type: "ov_degrees", value: { x: 0, y: 0, z: 1, th: 45 } }, label: "body" },
          },
        },
        { name: "ball", api: "rdk:component:generic", model: "fake", frame: { parent: "world", geometry: { r: 5 } } },
      ],
      auth: { handlers: [{ type: "api-key", config: { k1: "secret", keys: ["k1"] } }] },
      network: { bind_address: ":8080", allowed_hosts: ["robot.local"] },
      cloud: { id: "stored", secret: "must-not-be-served" },
      revision: "stale",
    };
    const { config, leftOut } = toRobotConfig(stored, cloud, "9");
    expect(leftOut).toEqual(["modules[0].version", "modules[0].startup_timeout", "network.allowed_hosts"]);
    expect(config.modules[0]).toMatchObject({ path: "/bin/m", firstRunTimeout: { seconds: 90n } });
    expect(config.processes[0]).toMatchObject({ stopSignal: 9, stopTimeout: { seconds: 0n, nanos: 500_000_000 } });
    expect(config.maintenance?.sensorName).toMatchObject({ namespace: "rdk", type: "component", subtype: "sensor", name: "door" });
    const arm = config.components[0]!.frame!;
    expect(arm.orientation?.type).toEqual({ case: "eulerAngles", value: expect.objectContaining({ yaw: 1.5 }) });
    expect(arm.geometry?.geometryType).toEqual({ case: "box", value: expect.objectContaining({ dimsMm: expect.objectContaining({ x: 10, y: 20, z: 30 }) }) });
    expect(arm.geometry?.center).toMatchObject({ x: 1, oZ: 1 });
    expect(arm.geometry?.center?.theta).toBeCloseTo(45);
    expect(arm.geometry?.label).toBe("body");
    expect(config.components[1]!.frame!.geometry?.geometryType).toEqual({ case: "sphere", value: expect.objectContaining({ radiusMm: 5 }) });
    expect(config.auth?.handlers[0]?.type).toBe(2);
    expect(config.auth?.handlers[0]?.config).toEqual({ k1: "secret", keys: ["k1"] });
    expect(JSON.stringify(config, (_k, v) => (typeof v === "bigint" ? String(v) : v))).not.toContain("must-not-be-served");
    expect(config.revision).toBe("9");
    expect(config.cloud?.id).toBe("part-1");
  });

  it("says where a config cannot be served, instead of failing without a path", () => {
    expect(() => toRobotConfig({ processes: [{ id: "p", name: "x", stop_timeout: "soon" }] }, cloud, "1")).toThrow(/processes\[0\]\.stop_timeout: must be a duration/);
    expect(() => toRobotConfig({ components: [{ name: "a", frame: { parent: "world", orientation: { type: "spin" } } }] }, cloud, "1")).toThrow(/components\[0\]\.frame\.orientation\.type: must be one of/);
    expect(() => toRobotConfig({ components: "none" }, cloud, "1")).toThrow(/components: must be a list/);
  });

  it("has a field or a reason for every key svc's schema knows", () => {
    const schema = JSON.parse(readFileSync(join(root, "core/config/schema.json"), "utf8")) as { definitions: Record<string, { properties?: Record<string, unknown> }> };
    for (const [definition, table] of Object.entries(tablesBySchemaDefinition)) {
      const keys = Object.keys(schema.definitions[definition]?.properties ?? {});
      expect(keys.length, definition).toBeGreaterThan(0);
      for (const key of keys) expect(Object.keys(table), `${definition}.${key}`).toContain(key);
    }
  });
});
