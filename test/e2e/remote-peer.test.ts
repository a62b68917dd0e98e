// svc-server reached from an address that is not loopback, in a network namespace of the test's
// own (an address on its loopback interface, so nothing leaves the machine): curl calls it there as another machine
// would. A token over TLS opens -webprofile's /debug routes to such a caller; a Viam-style
// configuration that binds ":port" without keys keeps working under the machine's names and
// addresses, refuses any other Host, and warns at start that it is unauthenticated.
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { hostname, tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { logLines } from "../helpers/log-lines.js";
import { distLinux } from "../helpers/run-cli.js";
import { requireNetworkNamespaces, requireTools } from "../helpers/system-tools.js";

const namespace = `svc-auth-${process.pid}`;
const address = `10.201.${process.pid % 250}.1`;
const dir = mkdtempSync(join(tmpdir(), "svc-remote-peer-"));
const started: ChildProcess[] = [];

const ip = (...args: string[]) => {
  const result = spawnSync("ip", args, { encoding: "utf8" });
  if (result.status !== 0) throw new Error(`ip ${args.join(" ")}: ${result.stderr}`);
};

beforeAll(() => {
  requireNetworkNamespaces();
  requireTools("ip", "curl", "openssl");
  ip("netns", "add", namespace);
  ip("-n", namespace, "link", "set", "lo", "up");
  // An address of the namespace's own that is not in 127.0.0.0/8: what another machine's would be.
  ip("-n", namespace, "addr", "add", `${address}/32`, "dev", "lo");
  const made = spawnSync("openssl", [
    "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
    "-keyout", join(dir, "key.pem"), "-out", join(dir, "cert.pem"), "-days", "1", "-subj", "/CN=robot",
    "-addext", `subjectAltName=IP:${address},DNS:localhost`,
  ], { encoding: "utf8" });
  if (made.status !== 0) throw new Error(`openssl: ${made.stderr}`);
});

afterAll(async () => {
  for (const child of started) {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((resolve) => child.once("exit", resolve));
      process.kill(child.pid!, "SIGTERM");
      await exited;
    }
  }
  spawnSync("ip", ["netns", "delete", namespace]);
  rmSync(dir, { recursive: true, force: true });
});

interface InNamespace {
  port: number;
  stdout(): string;
}

/** svc-server inside the namespace with `config` (and `args`); resolves once it serves. */
async function startInNamespace(name: string, config: object, args: string[] = []): Promise<InNamespace> {
  const file = join(dir, `${name}.json`);
  writeFileSync(file, JSON.stringify(config));
  const child = spawn("ip", ["netns", "exec", namespace, process.execPath, join(distLinux, "svc-server.mjs"), "-config", file, "-ftdc=false", ...args], {
    stdio: ["ignore", "pipe", "pipe"],
    env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "/root", TMPDIR: dir },
  });
  started.push(child);
  let out = "";
  let err = "";
  child.stdout!.on("data", (d) => (out += d));
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`svc-server did not serve in time: ${err}`)), 20_000);
    child.stderr!.on("data", (d) => {
      err += d;
      const match = /serving https?:\/\/[^\s]*:(\d+)/.exec(err);
      if (match) {
        clearTimeout(timer);
        resolve(Number(match[1]));
      }
    });
    child.once("exit", (code) => reject(new Error(`svc-server exited with ${code}: ${err}`)));
  });
  return { port, stdout: () => out };
}

/** curl inside the namespace: status and body. */
function curl(url: string, options: { headers?: string[]; data?: string; resolve?: string } = {}): { status: number; body: string } {
  const args = ["netns", "exec", namespace, "curl", "-s", "-o", "-", "-w", "\n%{http_code}", "--max-time", "15", "--cacert", join(dir, "cert.pem")];
  if (options.resolve) args.push("--resolve", options.resolve);
  for (const header of options.headers ?? []) args.push("-H", header);
  if (options.data !== undefined) args.push("-H", "content-type: application/json", "--data", options.data);
  args.push(url);
  const result = spawnSync("ip", args, { encoding: "utf8", maxBuffer: 256 * 1024 * 1024 });
  const lines = result.stdout.trimEnd().split("\n");
  return { status: Number(lines.pop()), body: lines.join("\n") };
}

const sensor = { name: "temp", api: "rdk:component:sensor", model: "fake", attributes: { readings: { celsius: 22 } } };
const readings = JSON.stringify({ name: "temp" });
const readingsPath = "/viam.component.sensor.v1.SensorService/GetReadings";

describe("from another address over TLS, with API keys", () => {
  it("a token opens -webprofile's /debug routes; without one they are refused", async () => {
    const server = await startInNamespace(
      "tls",
      {
        components: [sensor],
        network: { bind_address: `${address}:0`, tls_cert_file: join(dir, "cert.pem"), tls_key_file: join(dir, "key.pem") },
        auth: { handlers: [{ type: "api-key", config: { "key-id": "key-value-one" } }] },
      },
      ["-webprofile"],
    );
    const base = `https://${address}:${server.port}`;
    const login = curl(`${base}/proto.rpc.v1.AuthService/Authenticate`, {
      data: JSON.stringify({ entity: "key-id", credentials: { type: "api-key", payload: "key-value-one" } }),
    });
    expect(login.status).toBe(200);
    const token = (JSON.parse(login.body) as { accessToken: string }).accessToken;

    const profile = curl(`${base}/debug/profile?seconds=0.1`, { headers: [`authorization: Bearer ${token}`] });
    expect(profile.status).toBe(200);
    expect(JSON.parse(profile.body)).toHaveProperty("nodes");
    expect(curl(`${base}/debug/profile?seconds=0.1`).status).toBe(401);
    expect(curl(`${base}${readingsPath}`, { data: readings, headers: [`authorization: Bearer ${token}`] }).status).toBe(200);
  });
});

describe('a Viam-style configuration binding ":port" without keys', () => {
  let server: InNamespace;
  beforeAll(async () => {
    server = await startInNamespace("open", { components: [sensor], network: { bind_address: ":0" } });
  });

  it("warns at start that the machine is unauthenticated beyond this machine", () => {
    const warning = logLines(server.stdout()).find((l) => l.level === "warn" && l.msg.includes("without authentication"));
    expect(warning?.msg).toContain("every network interface");
  });

  it("answers under its address, its hostname and <hostname>.local, and refuses any other Host", () => {
    const at = `http://${address}:${server.port}`;
    expect(curl(`${at}${readingsPath}`, { data: readings }).status).toBe(200);
    for (const name of [hostname(), `${hostname()}.local`]) {
      expect(curl(`${at}${readingsPath}`, { data: readings, headers: [`host: ${name}:${server.port}`] }).status, name).toBe(200);
    }
    const rebound = curl(`http://evil.example:${server.port}${readingsPath}`, {
      data: readings,
      resolve: `evil.example:${server.port}:${address}`,
    });
    expect(rebound.status).toBe(421);
    expect(rebound.body).toContain("network.allowed_hosts");
  });
});
