// svc-server's command line, driven as a real process.
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../helpers/run-cli.js";
import { startSvcServer } from "../helpers/svc-server-process.js";
import { eventually } from "../helpers/eventually.js";
import packageJson from "../../package.json";

const contractOptions = [
  "allow-insecure-creds", "config", "cpuprofile", "debug", "disable-mdns", "dump-resources", "ftdc",
  "log-file", "network-check", "no-tls", "output-telemetry", "reveal-sensitive-config-diffs",
  "shareddir", "untrusted-env", "version", "webprofile", "webrtc", "aix-install",
];

let dir: string;
const write = (name: string, content: unknown) => {
  const file = join(dir, name);
  writeFileSync(file, typeof content === "string" ? content : JSON.stringify(content));
  return file;
};

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "svc-server-cli-"));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("svc-server options", () => {
  it("-help lists every option of the contract on one line each", () => {
    const { code, stdout } = runCli("svc-server", ["-help"]);
    expect(code).toBe(0);
    for (const name of [...contractOptions, "validate"]) {
      const starts = new RegExp(`^\\s+-${name}(\\s|$)`);
      expect(stdout.split("\n").filter((line) => starts.test(line))).toHaveLength(1);
    }
  });

  it("prints its version with one or two dashes", () => {
    for (const flag of ["-version", "--version"]) {
      const { code, stdout } = runCli("svc-server", [flag]);
      expect(code).toBe(0);
      expect(stdout.trim()).toBe(`svc-server ${packageJson.version}`);
    }
  });

  it("exits 2 with usage on an unknown option", () => {
    const { code, stderr } = runCli("svc-server", ["-bogus"]);
    expect(code).toBe(2);
    expect(stderr).toContain("flag provided but not defined: -bogus");
    expect(stderr).toContain("Usage: svc-server");
  });

  it("-dump-resources writes every registered API and model, sorted, and exits", () => {
    const file = join(dir, "registrations.json");
    const { code } = runCli("svc-server", ["-dump-resources", file]);
    expect(code).toBe(0);
    const dump = JSON.parse(readFileSync(file, "utf8")) as Array<{ api: string; model: string; attributes_schema: unknown }>;
    expect(dump).toContainEqual(expect.objectContaining({ api: "rdk:component:motor", model: "rdk:builtin:gpio" }));
    const keys = dump.map((d) => `${d.api} ${d.model}`);
    expect(keys).toEqual([...keys].sort());
    const missingDir = runCli("svc-server", ["-dump-resources", join(dir, "no", "such", "dir", "x.json")]);
    expect(missingDir.code).toBe(1);
  });

  it("-network-check runs its checks, one line each, and skips the cloud ones without a cloud section", () => {
    const file = write("no-cloud.json", {});
    const { stdout } = runCli("svc-server", ["-network-check", "-config", file]);
    expect(stdout).toMatch(/interfaces/);
    expect(stdout).toMatch(/skipped +dns/);
    expect(stdout).toMatch(/skipped +tcp/);
  });
});

describe("svc-server running", () => {
  it("writes its logs as JSON lines to -log-file, creating the directory, and ignores none of its options", async () => {
    const logFile = join(dir, "logs", "deeper", "svc.log");
    const server = await startSvcServer({ components: [{ name: "s", api: "rdk:component:sensor", model: "fake" }] }, {
      args: ["-log-file", logFile, "-debug", "-ftdc=false"],
    });
    await eventually(() => (existsSync(logFile) && readFileSync(logFile, "utf8").includes("configuration loaded")) || undefined, "the log file");
    expect(await server.stop()).toBe(0);
    const entries = readFileSync(logFile, "utf8").trim().split("\n").map((line) => JSON.parse(line));
    expect(entries).toContainEqual(expect.objectContaining({ msg: "configuration loaded", components: 1, logger: "svc.config" }));
    expect(server.stderr()).not.toContain("ignored");
  });
});

describe("svc-server with a log file it cannot write", () => {
  it("exits 1 at start, naming the file and why, without serving", () => {
    const config = write("quiet.json", { network: { bind_address: "localhost:0" } });
    write("plain-file", "");
    for (const logFile of ["/proc/x/y.log", join(dir, "plain-file", "svc.log")]) {
      const { code, stderr } = runCli("svc-server", ["-config", config, "-log-file", logFile]);
      expect(code).toBe(1);
      expect(stderr).toContain(`svc-server: -log-file ${logFile}: cannot write the log file: `);
      expect(stderr).not.toContain("serving");
    }
  });
});

describe("svc-server -validate", () => {
  it("accepts a good configuration with exit 0", () => {
    const file = write("good.json", { components: [{ name: "s", api: "rdk:component:sensor", model: "fake" }] });
    const { code, stdout } = runCli("svc-server", ["-validate", "-config", file]);
    expect(code).toBe(0);
    expect(stdout).toContain("0 error(s), 0 warning(s)");
  });

  it("prints each problem as `path: message` and exits 1 on errors", () => {
    const file = write("bad.json", {
      components: [{ name: "bad name!", api: "rdk:component:sensor", model: "fake" }],
      agent: { additional_networks: { home: { type: "wifi", priority: 5000 } } },
    });
    const { code, stderr } = runCli("svc-server", ["-validate", "-config", file]);
    expect(code).toBe(1);
    expect(stderr).toMatch(/^components\[0\]\.name: /m);
    expect(stderr).toMatch(/^agent\.additional_networks\.home\.priority: /m);
  });

  it("exits 0 when there are only warnings, such as an unknown key or a module missing here", () => {
    const file = write("warn.json", {
      shiny_new_key: true,
      modules: [{ type: "local", name: "m", executable_path: "/nonexistent/module-binary" }],
    });
    const { code, stdout } = runCli("svc-server", ["-validate", "-config", file]);
    expect(code).toBe(0);
    expect(stdout).toMatch(/shiny_new_key.*\(warning\)/);
    expect(stdout).toMatch(/^modules\[0\]\.executable_path: \/nonexistent\/module-binary does not exist on this machine \(warning\)$/m);
  });

  it("points a missing module executable at its place in the file, even after a broken entry", () => {
    const file = write("modules.json", {
      modules: [{ type: "local", name: "broken" }, { type: "local", name: "m2", executable_path: "/nonexistent/m2" }],
    });
    const { code, stderr } = runCli("svc-server", ["-validate", "-config", file]);
    expect(code).toBe(1);
    expect(stderr).toMatch(/^modules\[0\]/m);
    expect(stderr).toMatch(/^modules\[1\]\.executable_path: \/nonexistent\/m2 does not exist/m);
  });

  it("reports unparseable JSON and unreadable files with exit 1", () => {
    const broken = write("broken.json", "{ \"components\": [ ");
    const parsed = runCli("svc-server", ["-validate", "-config", broken]);
    expect(parsed.code).toBe(1);
    expect(parsed.stderr).toContain(broken);
    const missing = runCli("svc-server", ["-validate", "-config", join(dir, "nope.json")]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain("cannot read");
  });

  it("needs -config", () => {
    const { code, stderr } = runCli("svc-server", ["-validate"]);
    expect(code).toBe(2);
    expect(stderr).toContain("-validate needs -config");
  });
});
