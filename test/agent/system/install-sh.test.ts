import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readlinkSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { parseMachineConfig } from "../../../core/index.js";

const installSh = join(import.meta.dirname, "../../../tools/install.sh");
let dir: string;
let root: string;
let packages: string;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "svc-install-sh-"));
  root = join(dir, "root");
  packages = join(dir, "packages");
  mkdirSync(root);
  mkdirSync(packages);
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

// An agent artifact whose svc-agent records its arguments under the root prefix it is given (SVC_AGENT_ROOT), and an index listing it
// as the stable agent for both architectures.
function publish(version: string, options: { sha256?: string } = {}): void {
  const stage = join(dir, `stage-${version}`);
  mkdirSync(join(stage, "lib"), { recursive: true });
  writeFileSync(join(stage, "svc-agent"), `#!/bin/sh\necho "$*" > "$SVC_AGENT_ROOT/agent-ran-with"\necho "${version}" >> "$SVC_AGENT_ROOT/agent-ran-with"\n`, { mode: 0o755 });
  writeFileSync(join(stage, "lib", "svc-agent.mjs"), "// bundle\n");
  const name = `svc-agent-${version}-linux.tar.gz`;
  const tar = spawnSync("tar", ["-czf", join(packages, name), "-C", stage, "."]);
  expect(tar.status).toBe(0);
  const sha256 = options.sha256 ?? createHash("sha256").update(readFileSync(join(packages, name))).digest("hex");
  const artifact = { url: name, sha256, size: statSync(join(packages, name)).size };
  const index = { agent: { channels: { stable: version }, versions: { [version]: { "linux/amd64": artifact, "linux/arm64": artifact } } } };
  writeFileSync(join(packages, "index.json"), JSON.stringify(index));
}

function install(env: Record<string, string> = {}, path = process.env.PATH!) {
  return spawnSync("sh", [installSh], {
    encoding: "utf8",
    env: { PATH: path, HOME: dir, SVC_ROOT: root, SVC_PACKAGE_URL: pathToFileURL(packages).href, ...env },
  });
}

describe("tools/install.sh", () => {
  it("installs the stable agent, writes the credentials (0600) and runs svc-agent --install", () => {
    publish("1.4.0");
    const result = install({ SVC_PART_ID: "part-123", SVC_API_KEY_ID: "key-id-1", SVC_API_KEY: 'k"ey\\value' });
    expect(result.stderr).toContain("svc-agent 1.4.0 is installed");
    expect(result.status).toBe(0);
    expect(readlinkSync(join(root, "opt/svc/agent/current"))).toBe("versions/1.4.0");
    expect(existsSync(join(root, "opt/svc/agent/versions/1.4.0/lib/svc-agent.mjs"))).toBe(true);
    expect(readFileSync(join(root, "agent-ran-with"), "utf8")).toBe("--install\n1.4.0\n");

    const config = join(root, "etc/svc.json");
    expect(statSync(config).mode & 0o777).toBe(0o600);
    const parsed = parseMachineConfig(readFileSync(config, "utf8"));
    expect(parsed.issues).toEqual([]);
    expect(parsed.config!.cloud).toMatchObject({ id: "part-123", secret: 'k"ey\\value' });
    expect(parsed.config!.auth.handlers).toEqual([{ type: "api-key", config: { "key-id-1": 'k"ey\\value' } }]);
  });

  it("keeps the version it replaces as previous, and leaves the credentials alone when none are given", () => {
    publish("1.4.0");
    expect(install().status).toBe(0);
    publish("1.5.0");
    expect(install().status).toBe(0);
    expect(readlinkSync(join(root, "opt/svc/agent/current"))).toBe("versions/1.5.0");
    expect(readlinkSync(join(root, "opt/svc/agent/previous"))).toBe("versions/1.4.0");
    expect(existsSync(join(root, "etc/svc.json"))).toBe(false);
  });

  it("installs nothing when the artifact does not match its sha256", () => {
    publish("1.4.0", { sha256: "0".repeat(64) });
    const result = install();
    expect(result.status).toBe(1);
    expect(result.stderr).toContain("does not match its sha256 in the index; nothing was installed");
    expect(existsSync(join(root, "opt/svc/agent/current"))).toBe(false);
    expect(existsSync(join(root, "opt/svc/agent/versions/1.4.0"))).toBe(false);
    expect(existsSync(join(root, "agent-ran-with"))).toBe(false);
  });

  it("says clearly when the architecture is not supported", () => {
    publish("1.4.0");
    const bin = join(dir, "bin");
    mkdirSync(bin);
    writeFileSync(join(bin, "uname"), "#!/bin/sh\necho mips\n", { mode: 0o755 });
    const result = install({}, `${bin}:${process.env.PATH}`);
    expect(result.status).toBe(1);
    expect(result.stderr).toContain("this machine's architecture, mips, is not supported");
  });

  it("refuses a partial set of credentials, and an index without a stable agent", () => {
    publish("1.4.0");
    const partial = install({ SVC_PART_ID: "part-123" });
    expect(partial.status).toBe(1);
    expect(partial.stderr).toContain("give all three of SVC_PART_ID, SVC_API_KEY_ID and SVC_API_KEY, or none");
    writeFileSync(join(packages, "index.json"), JSON.stringify({ "svc-server": {} }));
    const empty = install();
    expect(empty.status).toBe(1);
    expect(empty.stderr).toContain("index.json: the index has no stable agent version");
  });
});
