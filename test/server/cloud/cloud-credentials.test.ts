// A credentials file svc-server cannot use stops it before it serves anything, with a sentence
// that says what to fix: a machine meant to be managed never runs unmanaged by mistake, and a key
// never crosses a network in clear because of a typo. Plain http:// is taken to this machine
// itself, or anywhere with -allow-insecure-creds.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { readMachineConfig, type CloudConfig } from "../../../core/index.js";
import { cloudCredentialsOf } from "../../../targets/linux/server/cloud/index.js";
import { runCli } from "../../helpers/run-cli.js";

const dir = mkdtempSync(join(tmpdir(), "svc-credentials-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const key = { id: "key-1", key: "k3y-never-printed" };
const cloudOf = (cloud: Record<string, unknown>): CloudConfig => {
  const { config, issues } = readMachineConfig(JSON.stringify({ cloud }));
  expect(issues.filter((i) => i.severity === "error")).toEqual([]);
  return config!.cloud!;
};

describe("a credentials file's cloud section", () => {
  it("is used with an https address, or http to this machine itself", () => {
    for (const address of ["https://cloud.example.com", "https://cloud.example.com:8443/", "http://localhost:8090", "http://127.0.0.1:8090", "http://[::1]:8090"]) {
      const made = cloudCredentialsOf(cloudOf({ id: "part-1", api_key: key, app_address: address }), false);
      expect(made, address).toMatchObject({ partId: "part-1", apiKey: key, refreshMs: 10_000 });
      expect("url" in made && made.url).toBe(new URL(address).origin);
    }
  });

  it("is refused, saying why, when it would send the key in clear or cannot be reached", () => {
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ app_address: "http://cloud.example.com" }, /plain http: the part's key would cross the network unencrypted; use https:\/\/ or start svc-server with -allow-insecure-creds/],
      [{ app_address: "http://10.0.0.5:8090" }, /plain http/],
      [{ app_address: "" }, /cloud.app_address is empty/],
      [{ app_address: "cloud.example.com" }, /is not a URL/],
      [{ app_address: "ftp://cloud.example.com" }, /must start with https:\/\//],
      [{ app_address: "https://user:pw@cloud.example.com" }, /must not carry a user name or password/],
      [{ app_address: "https://cloud.example.com", api_key: undefined, secret: "s3cret" }, /cloud.secret is a robot secret, which svc-cloud does not take/],
    ];
    for (const [extra, problem] of cases) {
      const made = cloudCredentialsOf(cloudOf({ id: "part-1", api_key: key, ...extra }), false);
      expect("problem" in made && made.problem, JSON.stringify(extra)).toMatch(problem);
      if ("problem" in made) expect(made.problem).not.toContain(key.key);
    }
  });

  it("takes plain http anywhere with -allow-insecure-creds", () => {
    expect(cloudCredentialsOf(cloudOf({ id: "part-1", api_key: key, app_address: "http://cloud.example.com:8090" }), true)).toMatchObject({ url: "http://cloud.example.com:8090" });
  });
});

describe("svc-server -config CREDENTIALS", () => {
  it("does not start on credentials it cannot use, and names the file and the fix", () => {
    const file = join(dir, "svc.json");
    writeFileSync(file, JSON.stringify({ cloud: { id: "part-1", api_key: key, app_address: "http://cloud.example.com" } }));
    const run = runCli("svc-server", ["-config", file], { env: { SVC_CLOUD_CACHE: join(dir, "cache") } });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`svc-server: ${file}: cloud.app_address "http://cloud.example.com" is plain http`);
    expect(run.stderr + run.stdout).not.toContain(key.key);
  });

  it("does not start on a cloud section without credentials, naming the place", () => {
    const file = join(dir, "partial.json");
    writeFileSync(file, JSON.stringify({ cloud: { id: "part-1", app_address: "https://cloud.example.com" } }));
    const run = runCli("svc-server", ["-config", file], { env: { SVC_CLOUD_CACHE: join(dir, "cache") } });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`cloud: needs the part's credentials: "api_key" ({"id", "key"}) or "secret"`);
  });
});
