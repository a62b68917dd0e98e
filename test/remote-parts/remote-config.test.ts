// The `remotes` section as the core reads it: Viam's RemoteConfig with its defaults (10 s checks,
// 1 s first reconnect, no prefix, TLS unless insecure or an http:// address), the address read
// into the URL it is dialled at, every mistake an error naming where it is, the API key never
// echoed in a message or a logged diff, Viam's keys svc-server does not act on named per entry;
// and `svc-server -validate` taking a configuration whose resources depend on a remote's.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { formatConfigDiff, maskSecrets, parseMachineConfig } from "../../core/index.js";
import { runCli } from "../helpers/run-cli.js";

const work = mkdtempSync(join(tmpdir(), "svc-remote-config-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const key = "a-long-and-secret-api-key-0123";
const issuesOf = (remotes: unknown[]) => parseMachineConfig({ remotes }).issues.map((i) => `${i.severity} ${i.path}: ${i.message}`);

describe("a remote's entry", () => {
  it("takes Viam's defaults and dials what its address says", () => {
    const { config, issues } = parseMachineConfig({
      remotes: [
        { name: "pi", address: "pi.local:8080" },
        { name: "lab", address: "192.168.1.20", insecure: true, prefix: "lab-", connection_check_interval: "2s", reconnect_interval: "250ms" },
        { name: "web", address: "https://pi.example.com/", auth: { entity: "key-id", credentials: { type: "api-key", payload: key } } },
        { name: "six", address: "http://[::1]:9090" },
      ],
    });
    expect(issues).toEqual([]);
    expect(config!.remotes).toEqual([
      {
        name: "pi",
        address: "pi.local:8080",
        url: "https://pi.local:8080",
        prefix: "",
        insecure: false,
        connection_check_interval: "10s",
        connection_check_interval_ms: 10_000,
        reconnect_interval: "1s",
        reconnect_interval_ms: 1_000,
      },
      expect.objectContaining({ name: "lab", url: "http://192.168.1.20:8080", prefix: "lab-", connection_check_interval_ms: 2_000, reconnect_interval_ms: 250 }),
      expect.objectContaining({ name: "web", url: "https://pi.example.com:443", auth: { entity: "key-id", credentials: { type: "api-key", payload: key } } }),
      expect.objectContaining({ name: "six", url: "http://[::1]:9090" }),
    ]);
  });

  it("is left out with an error naming where it is wrong, the others kept", () => {
    const { config, issues } = parseMachineConfig({
      remotes: [
        { name: "good", address: "good.local:8080" },
        { name: "good", address: "twice.local:8080" },
        { name: "nowhere" },
        { name: "ftp", address: "ftp://x.local:21" },
        { name: "quick", address: "x.local:8080", connection_check_interval: "10ms" },
      ],
    });
    expect(config!.remotes.map((r) => r.name)).toEqual(["good"]);
    expect(issues.map((i) => `${i.path}: ${i.message}`)).toEqual([
      'remotes[1].name: "good" is already used by remotes[0]',
      'remotes[2].address: is required: an address such as "pi.local:8080", "192.168.1.20:8080" or "https://pi.example.com:8080"',
      'remotes[3].address: must be "host:port" (such as "pi.local:8080"), or "http://host:port" / "https://host:port": the scheme "ftp" is not dialled (found "ftp://x.local:21")',
      'remotes[4].connection_check_interval: must be a duration from "100ms" to "1h", such as "10s" (found "10ms")',
    ]);
  });

  it("never echoes its API key: not in an error, not in a logged diff", () => {
    expect(issuesOf([{ name: "pi", address: "pi.local:8080", auth: { credentials: { type: "api-key", payload: 12345 } } }])).toEqual([
      "error remotes[0].auth.credentials.payload: must be a non-empty string (found a number value)",
    ]);
    const before = parseMachineConfig({ remotes: [{ name: "pi", address: "pi.local:8080", auth: { entity: "id", credentials: { type: "api-key", payload: key } } }] }).config!;
    const after = parseMachineConfig({ remotes: [{ name: "pi", address: "pi.local:8080", auth: { entity: "id", credentials: { type: "api-key", payload: `${key}-new` } } }] }).config!;
    const diff = formatConfigDiff(before, after).join("\n");
    expect(diff).toContain("remotes");
    expect(diff).not.toContain(key);
    expect(JSON.stringify(maskSecrets({ remotes: [{ auth: { credentials: { payload: key } } }] }))).not.toContain(key);
  });

  it("names Viam's keys svc-server does not act on, and reads Viam's empty credentials as none", () => {
    expect(
      issuesOf([
        { name: "pi", address: "pi.local:8080", frame: { parent: "world" }, service_configs: [{ type: "data_manager" }], secret: "location-secret", managed_by: "", auth: { credentials: null, entity: "" } },
      ]),
    ).toEqual([
      "warning remotes[0].frame: is not acted on: svc-server does not join a remote's frames to its own frame system",
      'warning remotes[0].service_configs[0]: "data_manager" is not acted on: svc-server captures no data',
      "warning remotes[0].secret: is not acted on: svc-server signs in to a remote with an API key only (auth.credentials)",
    ]);
    expect(parseMachineConfig({ remotes: [{ name: "pi", address: "pi.local:8080", auth: { credentials: null, entity: "" } }] }).config!.remotes[0]).not.toHaveProperty("auth");
  });
});

describe("svc-server -validate", () => {
  it("sets aside dependencies on a configured remote's resources, and warns of a simple name that only a remote can bring", () => {
    const file = join(work, "machine.json");
    writeFileSync(
      file,
      JSON.stringify({
        remotes: [{ name: "pi", address: "pi.local:8080" }],
        components: [
          { name: "near", api: "rdk:component:sensor", model: "fake", depends_on: ["pi:temp", "rdk:component:sensor/pi:humidity"] },
          { name: "far", api: "rdk:component:sensor", model: "fake", depends_on: ["pressure"] },
          { name: "lost", api: "rdk:component:sensor", model: "fake", depends_on: ["lab:temp"] },
        ],
      }),
    );
    const result = runCli("svc-server", ["-validate", "-config", file]);
    const out = result.stdout + result.stderr;
    expect(out).toContain('components[1]: dependency "pressure" is not configured here; it must come from remote "pi" (known once connected)');
    expect(out).toContain('components[2]: missing dependency "lab:temp": no such resource is configured or listed by a remote');
    expect(out).not.toContain("pi:temp");
    expect(out).toMatch(/: 1 error\(s\)/);
  });
});
