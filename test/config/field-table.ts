// The table behind the field tests: a row per configuration field says what it is when left
// out, which values are kept as written, and which are reported (exact path and message) and
// what becomes of them: outside an entry the default is used, inside one (a component, module,
// network...) the entry is left out, and in the auth section no configuration is left at all.
import { describe, expect, it } from "vitest";
import { parseMachineConfig, type ConfigIssue } from "../../core/index.js";
import { error, getAt, parse, withValue, type Json } from "./helpers.js";

export interface FieldRow {
  /** Where the value is written; it is read back at the same path of the parsed configuration. */
  path: string;
  /** The configuration the value is put in (valid on its own). */
  base?: Json;
  /** The value when the key is left out... */
  absent?: unknown;
  /** ...or the error when the key is required. */
  required?: string;
  valid: Json[];
  /** Value, message, and the issue's path when it is not `path`. */
  invalid: Array<[Json, string, string?]>;
  /** The entry left out when the field is invalid; without it, the default is used. */
  entry?: string;
  /** An invalid or missing value leaves no configuration at all (the auth section fails closed). */
  refusesWhole?: boolean;
}

export const bool = (path: string, base?: Json): FieldRow => ({
  path,
  base,
  absent: false,
  valid: [true, false],
  invalid: [
    ["yes", 'must be true or false (found "yes")'],
    [1, "must be true or false (found 1)"],
    [null, "must be true or false (found null)"],
  ],
});

export const minutes = (path: string, absent: number, low: 0 | 1): FieldRow => ({
  path,
  absent,
  valid: [low, 60, 525600],
  invalid: [
    [low - 1, `must be a whole number of minutes from ${low} to 525600 (found ${low - 1})`],
    [2.5, `must be a whole number of minutes from ${low} to 525600 (found 2.5)`],
    ["10", `must be a whole number of minutes from ${low} to 525600 (found "10")`],
    [1e300, `must be a whole number of minutes from ${low} to 525600 (found 1e+300)`],
  ],
});

export const text = (path: string, absent: string, valid: string[], base?: Json, entry?: string): FieldRow => ({
  path,
  base,
  absent,
  valid,
  invalid: [[7, "must be a string (found 7)"]],
  entry,
});

export const versionShape = '"stable", "dev", a version such as "1.2.3", or an http(s):// or file:// URL';
export const version = (path: string): FieldRow => ({
  path,
  absent: "stable",
  valid: ["stable", "dev", "1.2.3", "v0.20.1", "1.2.3-rc.1+build.5", "https://example.com/svc-server", "http://10.0.0.2/svc", "file:///opt/svc/svc-server"],
  invalid: [
    ["latest", `must be ${versionShape} (found "latest")`],
    ["1.2", `must be ${versionShape} (found "1.2")`],
    ["ftp://example.com/svc", `must be ${versionShape} (found "ftp://example.com/svc")`],
    [3, `must be ${versionShape} (found 3)`],
  ],
});

export const journald = (path: string): FieldRow => {
  const shape = "a size in MB from 0 to 1048576, or -1 to leave journald's own limit";
  return {
    path,
    absent: 512,
    valid: [-1, 0, 1024],
    invalid: [
      [-2, `must be ${shape} (found -2)`],
      ["512", `must be ${shape} (found "512")`],
    ],
  };
};

export const component = { name: "m", api: "rdk:component:motor", model: "fake" };
export const withComponent = { components: [component] };
export const withModule = { modules: [{ name: "mod", executable_path: "/opt/mod/run" }] };
export const withProcess = { processes: [{ id: "setup", name: "sh" }] };
export const withRule = { log: [{ pattern: "rdk.*", level: "info" }] };
export const withHandler = { auth: { handlers: [{ type: "api-key", config: { key1: "s3cret-value" } }] } };
export const withCloud = { cloud: { id: "part-1", secret: "s3cret" } };
export const withKeyCloud = { cloud: { id: "part-1", api_key: { id: "key-1", key: "k3y" } } };
export const withMaintenance = { maintenance: { sensor_name: "rdk:component:sensor/gate", maintenance_allowed_key: "ok" } };
export const withWifi = { agent: { additional_networks: { home: { type: "wifi", ssid: "home-net" } } } };
export const home = "agent.additional_networks.home";

export const nameShape = 'a name of letters, digits, "_" and "-"';
export const levelShape = 'one of "debug", "info", "warn", "error"';
export const sensorShape = 'a sensor\'s full name shaped "<namespace>:component:sensor/<name>"';
export const ipShape = 'an IPv4 address such as "192.168.1.1"';
export const cidrShape = '"auto" or an IPv4 address in CIDR form such as "192.168.1.20/24"';
export const signalShape = 'a signal such as "SIGTERM", "SIGINT", "SIGHUP", "SIGQUIT", "SIGABRT" or "SIGKILL" (or "" for SIGTERM)';
export const modelShape = 'a model such as "rdk:builtin:fake" or a short name such as "fake"';

export function checkFields(title: string, rows: FieldRow[]): void {
  describe(title, () => {
    for (const row of rows) {
      describe(row.path, () => {
        const base = row.base ?? {};

        it(row.required ? "is required" : "has its default when left out", () => {
          if (row.required && row.refusesWhole) return expectRefusedWhole(withValue(base, row.path, undefined), error(row.path, row.required));
          const { config, issues } = parse(withValue(base, row.path, undefined) as object);
          if (row.required) {
            expect(issues).toEqual([error(row.path, row.required)]);
            expect(getAt(config, row.entry!)).toBeUndefined();
          } else {
            expect(issues).toEqual([]);
            expect(getAt(config, row.path)).toEqual(row.absent);
          }
        });

        for (const value of row.valid) {
          it(`keeps ${JSON.stringify(value)}`, () => {
            const { config, issues } = parse(withValue(base, row.path, value) as object);
            expect(issues).toEqual([]);
            expect(getAt(config, row.path)).toEqual(value);
          });
        }

        for (const [value, message, at] of row.invalid) {
          it(`reports ${JSON.stringify(value)}`, () => {
            if (row.refusesWhole) return expectRefusedWhole(withValue(base, row.path, value), error(at ?? row.path, message));
            const { config, issues } = parse(withValue(base, row.path, value) as object);
            expect(issues).toEqual([error(at ?? row.path, message)]);
            if (row.entry) expect(getAt(config, row.entry)).toBeUndefined();
            else expect(getAt(config, row.path)).toEqual(row.absent);
          });
        }
      });
    }
  });
}

function expectRefusedWhole(input: Json, issue: ConfigIssue): void {
  const { config, issues } = parseMachineConfig(input as object);
  expect(config).toBeNull();
  expect(issues).toEqual([expect.objectContaining({ path: "", severity: "error" }), issue]);
}
