import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createCollectingSink, createLogEngine, createManualClock } from "../../../core/index.js";
import { agentPaths } from "../../../targets/linux/agent/agent-paths.js";
import { DEFAULT_RELEASE_INDEX_URL, loadAgentSettings, settingsCachePath } from "../../../targets/linux/agent/settings/index.js";
import { cloudAgentFile, keepCloudSections } from "../../../targets/linux/agent/cloud/cloud-agent-section.js";

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "svc-settings-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function setup(files: { config?: unknown; defaults?: unknown }) {
  const configFile = join(dir, "svc.json");
  const defaultsFile = join(dir, "svc-defaults.json");
  const write = (path: string, value: unknown) => writeFileSync(path, typeof value === "string" ? value : JSON.stringify(value));
  if (files.config !== undefined) write(configFile, files.config);
  if (files.defaults !== undefined) write(defaultsFile, files.defaults);
  const sink = createCollectingSink();
  const logger = createLogEngine({ clock: createManualClock(), sink }).logger("svc-agent");
  const paths = agentPaths(join(dir, "root"));
  return { configFile, defaultsFile, paths, logger, sink };
}

describe("loadAgentSettings", () => {
  it("on a machine svc-cloud manages, takes the agent section svc-cloud gave and its release index", async () => {
    const credentials = { cloud: { id: "part", api_key: { id: "key", key: "k" }, app_address: "https://cloud.example.com" }, agent: { version_control: { "svc-server": "9.9.9" } } };
    const s = setup({ config: credentials, defaults: { release_index_url: "https://releases.example.com/index.json", network_configuration: { manufacturer: "acme" } } });
    const base = { configFile: s.configFile, defaultsFile: s.defaultsFile, paths: s.paths, logger: s.logger };
    // Before svc-cloud first answered: nothing of the file's own section, the cloud's index.
    const before = loadAgentSettings(base);
    expect(before.agent.version_control["svc-server"]).toBe("stable");
    expect(before.releaseIndexUrl).toBe("https://cloud.example.com/releases/index.json");
    expect(before.agent.network_configuration.manufacturer).toBe("acme");

    await keepCloudSections(s.paths.stateDir, { agent: { version_control: { "svc-server": "1.1.0" }, advanced_settings: { debug: true } } });
    const after = loadAgentSettings(base);
    expect(after.agent.version_control["svc-server"]).toBe("1.1.0");
    expect(after.agent.advanced_settings.debug).toBe(true);
    expect(after.sources).toContain("svc-cloud https://cloud.example.com (as last fetched)");
    expect(statSync(cloudAgentFile(s.paths.stateDir)).mode & 0o777).toBe(0o600);
    // The environment still wins.
    expect(loadAgentSettings({ ...base, env: { SVC_AGENT_RELEASE_INDEX: "https://mirror.example.com/index.json" } }).releaseIndexUrl).toBe("https://mirror.example.com/index.json");
  });

  it("layers defaults file < machine config < flags < environment", () => {
    const s = setup({
      defaults: { advanced_settings: { debug: true, wait_for_update_check: true, viam_server_start_timeout_minutes: 4 }, network_configuration: { manufacturer: "acme" } },
      config: { cloud: { id: "part", secret: "s3cret" }, agent: { advanced_settings: { viam_server_start_timeout_minutes: 6, wait_for_update_check: false } } },
    });
    const base = { configFile: s.configFile, defaultsFile: s.defaultsFile, paths: s.paths, logger: s.logger };
    const files = loadAgentSettings(base);
    expect(files.agent.advanced_settings).toMatchObject({ debug: true, wait_for_update_check: false, viam_server_start_timeout_minutes: 6 });
    expect(files.agent.network_configuration.manufacturer).toBe("acme");
    expect(files.sources).toEqual(["built-in defaults", `manufacturer defaults ${s.defaultsFile}`, `machine config ${s.configFile}`]);

    const flags = loadAgentSettings({ ...base, flagLayer: { wait: true, debug: false } });
    expect(flags.agent.advanced_settings).toMatchObject({ debug: false, wait_for_update_check: true });
    expect(flags.sources.at(-1)).toBe("flags");

    const env = loadAgentSettings({ ...base, flagLayer: { wait: true, debug: false }, env: { SVC_AGENT_DEBUG: "1", SVC_AGENT_WAIT_FOR_UPDATE: "false" } });
    expect(env.agent.advanced_settings).toMatchObject({ debug: true, wait_for_update_check: false });
    expect(env.sources.slice(-2)).toEqual(["flags", "environment"]);

    const fast = loadAgentSettings({ ...base, env: { SVC_AGENT_WAIT_FOR_UPDATE: "1", SVC_AGENT_FAST_START: "1" } });
    expect(fast.agent.advanced_settings.wait_for_update_check).toBe(false);
    expect(files.warnings).toEqual([]);
  });

  it("takes the release index URL from the defaults file, then the environment", () => {
    const s = setup({ config: {}, defaults: { release_index_url: "file:///srv/index.json" } });
    const base = { configFile: s.configFile, defaultsFile: s.defaultsFile, paths: s.paths };
    expect(loadAgentSettings({ ...base, defaultsFile: join(dir, "none.json") }).releaseIndexUrl).toBe(DEFAULT_RELEASE_INDEX_URL);
    expect(loadAgentSettings(base).releaseIndexUrl).toBe("file:///srv/index.json");
    expect(loadAgentSettings({ ...base, env: { SVC_AGENT_RELEASE_INDEX: "http://127.0.0.1:9/index.json" } }).releaseIndexUrl).toBe("http://127.0.0.1:9/index.json");
    const bad = loadAgentSettings({ ...base, env: { SVC_AGENT_RELEASE_INDEX: "ftp://x" } });
    expect(bad.releaseIndexUrl).toBe("file:///srv/index.json");
    expect(bad.warnings).toEqual(["environment: SVC_AGENT_RELEASE_INDEX: must be an http, https or file URL (ignored)"]);
  });

  it("warns about a broken defaults file, naming the file and where it breaks, and goes on without it", () => {
    const s = setup({ config: { agent: { network_configuration: { model: "m1" } } }, defaults: '{\n  "network_configuration": {\n    "model": "x",,\n  }\n}' });
    const settings = loadAgentSettings({ configFile: s.configFile, defaultsFile: s.defaultsFile, paths: s.paths, logger: s.logger });
    expect(settings.agent.network_configuration.model).toBe("m1");
    expect(settings.warnings).toHaveLength(1);
    expect(settings.warnings[0]).toMatch(new RegExp(`^${s.defaultsFile}: is not valid JSON: unexpected "," at line 3, column 18`));
    expect(s.sink.entries.map((e) => e.message)).toEqual(settings.warnings);
    expect(s.sink.entries[0]!.level).toBe("warn");
  });

  it("uses the cached settings when the machine config cannot be read or parsed, and says so", () => {
    const s = setup({ config: { agent: { network_configuration: { hotspot_prefix: "cached-prefix" }, additional_networks: { home: { type: "wifi", ssid: "h", psk: "secretpass" } } } } });
    const options = { configFile: s.configFile, defaultsFile: s.defaultsFile, paths: s.paths, logger: s.logger };
    const first = loadAgentSettings(options);
    const cachePath = settingsCachePath(s.paths.stateDir);
    expect(statSync(cachePath).mode & 0o777).toBe(0o600);
    expect(JSON.parse(readFileSync(cachePath, "utf8")).agent).toEqual(first.agent);

    writeFileSync(s.configFile, "{ not json");
    const fromCache = loadAgentSettings({ ...options, flagLayer: { debug: true } });
    expect(fromCache.agent.network_configuration.hotspot_prefix).toBe("cached-prefix");
    expect(fromCache.agent.additional_networks.home!.psk).toBe("secretpass");
    // Flags still apply over the cached files' settings.
    expect(fromCache.agent.advanced_settings.debug).toBe(true);
    expect(fromCache.sources).toEqual(["built-in defaults", `cached settings ${cachePath}`, "flags"]);
    expect(fromCache.warnings).toHaveLength(1);
    expect(fromCache.warnings[0]).toContain(`${s.configFile}: is not valid JSON`);
    expect(fromCache.warnings[0]).toContain(`using the settings cached in ${cachePath}`);

    rmSync(s.configFile);
    expect(loadAgentSettings(options).agent.network_configuration.hotspot_prefix).toBe("cached-prefix");
    // The cache itself was not overwritten while the config was unusable.
    expect(JSON.parse(readFileSync(cachePath, "utf8")).agent).toEqual(first.agent);
    // Nothing logged holds the passkey.
    expect(JSON.stringify(s.sink.entries)).not.toContain("secretpass");
  });

  it("falls back to the defaults when there is neither a readable config nor a cache", () => {
    const s = setup({ config: "[1,2", defaults: { network_configuration: { model: "from-defaults" } } });
    const settings = loadAgentSettings({ configFile: s.configFile, defaultsFile: s.defaultsFile, paths: s.paths });
    expect(settings.agent.network_configuration.model).toBe("from-defaults");
    expect(settings.warnings[0]).toMatch(/is not valid JSON.*there is no .*agent-settings\.json yet; using defaults$/);
  });

  it("never logs a passkey or an API key, even from values it rejects", () => {
    const s = setup({
      config: { cloud: { id: "part", secret: "cloud-secret-value" }, auth: { handlers: [{ type: "api-key", config: { k1: "api-key-value" } }] }, agent: { additional_networks: { w: { type: "wifi", ssid: "s", psk: "tiny" } }, network_configuration: { hotspot_password: "pw" } } },
    });
    loadAgentSettings({ configFile: s.configFile, defaultsFile: s.defaultsFile, paths: s.paths, logger: s.logger });
    const logged = JSON.stringify(s.sink.entries);
    expect(s.sink.entries.length).toBeGreaterThan(0);
    for (const secret of ["tiny", "\"pw\"", "cloud-secret-value", "api-key-value"]) expect(logged).not.toContain(secret);
  });
});
