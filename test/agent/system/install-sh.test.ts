import { spawn, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readlinkSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { createReadStream } from "node:fs";
import { createServer as createHttpServer, type Server } from "node:http";
import { createServer as createHttpsServer } from "node:https";
import type { AddressInfo } from "node:net";
import { requireTools } from "../../helpers/system-tools.js";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { parseMachineConfig } from "../../../core/index.js";
import { startCloud } from "../../helpers/cloud-process.js";

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
function publish(version: string, options: { sha256?: string; size?: number } = {}): void {
  const stage = join(dir, `stage-${version}`);
  mkdirSync(join(stage, "lib"), { recursive: true });
  writeFileSync(join(stage, "svc-agent"), `#!/bin/sh\necho "$*" > "$SVC_AGENT_ROOT/agent-ran-with"\necho "${version}" >> "$SVC_AGENT_ROOT/agent-ran-with"\n`, { mode: 0o755 });
  writeFileSync(join(stage, "lib", "svc-agent.mjs"), "// bundle\n");
  const name = `svc-agent-${version}-linux.tar.gz`;
  const tar = spawnSync("tar", ["-czf", join(packages, name), "-C", stage, "."]);
  expect(tar.status).toBe(0);
  const sha256 = options.sha256 ?? createHash("sha256").update(readFileSync(join(packages, name))).digest("hex");
  const artifact = { url: name, sha256, size: options.size ?? statSync(join(packages, name)).size };
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
  it("installs the stable agent and runs svc-agent --install", () => {
    publish("1.4.0");
    const result = install();
    expect(result.stderr).toContain("svc-agent 1.4.0 is installed");
    expect(result.status).toBe(0);
    expect(readlinkSync(join(root, "opt/svc/agent/current"))).toBe("versions/1.4.0");
    expect(existsSync(join(root, "opt/svc/agent/versions/1.4.0/lib/svc-agent.mjs"))).toBe(true);
    expect(readFileSync(join(root, "agent-ran-with"), "utf8")).toBe("--install\n1.4.0\n");
  });

  it("fetches the machine's credentials file from svc-cloud with the three variables, and writes it 0600", async () => {
    publish("1.4.0");
    const cloud = await startCloud();
    try {
      const made = cloud.createMachine("rover");
      const { id, api_key } = made.cloud;
      const result = install({ SVC_CLOUD_URL: cloud.url, SVC_PART_ID: id, SVC_API_KEY_ID: api_key.id, SVC_API_KEY: api_key.key });
      expect(result.stderr).toContain("wrote the machine credentials");
      expect(result.status).toBe(0);
      const config = join(root, "etc/svc.json");
      expect(statSync(config).mode & 0o777).toBe(0o600);
      expect(JSON.parse(readFileSync(config, "utf8"))).toEqual(made);
      const parsed = parseMachineConfig(readFileSync(config, "utf8"));
      expect(parsed.issues).toEqual([]);
      expect(parsed.config!.cloud).toMatchObject({ id, api_key, app_address: cloud.url });

      // A wrong key installs nothing and names what to check; the key is in no process's arguments.
      rmSync(join(root, "opt"), { recursive: true });
      const wrong = install({ SVC_CLOUD_URL: cloud.url, SVC_PART_ID: id, SVC_API_KEY_ID: api_key.id, SVC_API_KEY: "not-the-key" });
      expect(wrong.status).toBe(1);
      expect(wrong.stderr).toContain(`svc-cloud at ${cloud.url} did not give the credentials for part ${id}`);
      expect(existsSync(join(root, "opt/svc/agent/current"))).toBe(false);
      const broken = install({ SVC_CLOUD_URL: cloud.url, SVC_PART_ID: id, SVC_API_KEY_ID: api_key.id, SVC_API_KEY: "two\nlines" });
      expect(broken.status).toBe(1);
      expect(broken.stderr).toContain("must not hold line breaks");
    } finally {
      await cloud.stop();
    }
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

describe("tools/install.sh reading what it downloads", () => {
  let servers: Server[] = [];
  afterEach(async () => {
    for (const server of servers) {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
    servers = [];
  });
  const listen = async (server: Server) => {
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    return (server.address() as AddressInfo).port;
  };
  // The servers run in this process: the script must run without blocking it.
  const installAsync = (env: Record<string, string>) =>
    new Promise<{ status: number | null; stderr: string }>((resolve) => {
      const child = spawn("sh", [installSh], { env: { PATH: process.env.PATH!, HOME: dir, SVC_ROOT: root, ...env }, stdio: ["ignore", "ignore", "pipe"] });
      let stderr = "";
      child.stderr.on("data", (chunk) => (stderr += chunk));
      child.once("close", (status) => resolve({ status, stderr }));
    });

  it("reads at most 4 MiB of the index and no more of the artifact than its entry's size", () => {
    publish("1.4.0", { size: 100 });
    const small = install();
    expect(small.status).toBe(1);
    expect(small.stderr).toMatch(/cannot download .*svc-agent-1\.4\.0-linux\.tar\.gz \(or it is larger than 100 bytes\)/);
    writeFileSync(join(packages, "index.json"), " ".repeat(4 * 1024 * 1024 + 1));
    const large = install();
    expect(large.status).toBe(1);
    expect(large.stderr).toMatch(/cannot download .*index\.json \(or it is larger than 4 MiB\)/);
    expect(existsSync(join(root, "opt/svc/agent/current"))).toBe(false);
  });

  it("cuts off an index that does not say its length once it passes 4 MiB", async () => {
    const endless = createHttpServer((_req, res) => {
      res.writeHead(200, { "content-type": "application/json" });
      const more = () => {
        while (res.write(" ".repeat(64 * 1024)));
      };
      res.on("drain", more);
      more();
    });
    const port = await listen(endless);
    const result = await installAsync({ SVC_PACKAGE_URL: `http://127.0.0.1:${port}` });
    expect(result.status).toBe(1);
    expect(result.stderr).toContain("(or it is larger than 4 MiB)");
  });

  it("installs over https, and never follows a redirect from https down to http", async () => {
    requireTools("openssl");
    publish("1.4.0");
    const keyFile = join(dir, "key.pem");
    const certFile = join(dir, "cert.pem");
    const made = spawnSync("openssl", [
      "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
      "-keyout", keyFile, "-out", certFile, "-days", "1", "-subj", "/CN=localhost",
      "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1",
    ]);
    expect(made.status, String(made.stderr)).toBe(0);
    const serveFile = (path: string, res: import("node:http").ServerResponse) => {
      const file = join(packages, path.replace(/^\/+/, ""));
      if (!existsSync(file)) return void res.writeHead(404).end();
      res.writeHead(200, { "content-length": statSync(file).size });
      createReadStream(file).pipe(res);
    };
    const plainPort = await listen(createHttpServer((req, res) => serveFile(req.url!, res)));
    const tlsPort = await listen(
      createHttpsServer({ key: readFileSync(keyFile), cert: readFileSync(certFile) }, (req, res) => {
        if (req.url!.startsWith("/down/")) return void res.writeHead(302, { location: `http://127.0.0.1:${plainPort}/${req.url!.slice(6)}` }).end();
        serveFile(req.url!, res);
      }),
    );
    const trust = { CURL_CA_BUNDLE: certFile };
    const down = await installAsync({ ...trust, SVC_PACKAGE_URL: `https://127.0.0.1:${tlsPort}/down` });
    expect(down.status).toBe(1);
    expect(down.stderr).toMatch(/cannot download https:\/\/127\.0\.0\.1:\d+\/down\/index\.json/);
    expect(existsSync(join(root, "opt/svc/agent/current"))).toBe(false);
    const direct = await installAsync({ ...trust, SVC_PACKAGE_URL: `https://127.0.0.1:${tlsPort}` });
    expect(direct.stderr).toContain("svc-agent 1.4.0 is installed");
    expect(direct.status).toBe(0);
  });
});
