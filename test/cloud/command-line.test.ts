// svc-cloud's command line as an operator uses it: init once, machines made while the service
// runs, their credentials file in the shape svc-server and svc-agent read, and clear refusals.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { runCloud, startCloud, type CloudProcess } from "../helpers/cloud-process.js";

let cloud: CloudProcess | undefined;
const folders: string[] = [];
afterEach(async () => {
  await cloud?.stop();
  cloud = undefined;
  for (const dir of folders.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function dataFolder(): string {
  const dir = mkdtempSync(join(tmpdir(), "svc-cloud-cli-"));
  folders.push(dir);
  return dir;
}

describe("svc-cloud init", () => {
  it("makes an organisation, a location and an organisation key, as one JSON object", () => {
    const made = runCloud(["init", "--email", "Owner@Example.com", "--password", "correct horse"], dataFolder());
    expect(made.status).toBe(0);
    const result = JSON.parse(made.stdout);
    expect(Object.keys(result).sort()).toEqual(["api_key", "location_id", "organization_id"]);
    expect(result.api_key.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(result.api_key.key).toMatch(/^[a-z0-9]{32}$/);
  });

  it("initialises a data folder once and says so the second time", () => {
    const dir = dataFolder();
    expect(runCloud(["init"], dir).status).toBe(0);
    const again = runCloud(["init"], dir);
    expect(again.status).toBe(1);
    expect(again.stderr).toMatch(/already initialised/);
  });

  it("refuses an email without a password, a bad email and a short password", () => {
    const dir = dataFolder();
    expect(runCloud(["init", "--email", "a@b.c"], dir).stderr).toMatch(/--email and --password go together/);
    expect(runCloud(["init", "--email", "nobody", "--password", "long enough"], dir).stderr).toMatch(/not an email address/);
    expect(runCloud(["init", "--email", "a@b.c", "--password", "short"], dir).stderr).toMatch(/at least 8 characters/);
    // None of them initialised the folder.
    expect(runCloud(["init"], dir).status).toBe(0);
  });

  it("names an unknown command or flag with the usage", () => {
    const dir = dataFolder();
    const unknown = runCloud(["frobnicate"], dir);
    expect(unknown.status).toBe(2);
    expect(unknown.stderr).toMatch(/unknown command "frobnicate"[\s\S]*usage:/);
    const badFlag = runCloud(["init", "--colour", "red"], dir);
    expect(badFlag.status).toBe(2);
    expect(badFlag.stderr).toMatch(/--colour/);
  });
});

describe("svc-cloud machine create", () => {
  it("prints the machine's credentials file with the running service's address", async () => {
    cloud = await startCloud();
    const credentials = cloud.createMachine("rover");
    expect(Object.keys(credentials.cloud).sort()).toEqual(["api_key", "app_address", "id"]);
    expect(credentials.cloud.app_address).toBe(cloud.url);
    expect(credentials.cloud.api_key.key).toMatch(/^[a-z0-9]{32}$/);
  });

  it("refuses a second machine of the same name in a location, a bad name and an unknown location", async () => {
    cloud = await startCloud();
    cloud.createMachine("rover");
    expect(cloud.run(["machine", "create", "--name", "rover"]).stderr).toMatch(/already exists/);
    expect(cloud.run(["machine", "create", "--name", "../etc"]).stderr).toMatch(/--name/);
    expect(cloud.run(["machine", "create"]).stderr).toMatch(/--name is required/);
    const unknown = cloud.run(["machine", "create", "--name", "x", "--location", "nowhere"]);
    expect(unknown.status).toBe(1);
    expect(unknown.stderr).toMatch(/--location nowhere: no such location/);
  });

  it("asks for svc-cloud init first on an empty folder", () => {
    const made = runCloud(["machine", "create", "--name", "rover"], dataFolder());
    expect(made.status).toBe(1);
    expect(made.stderr).toMatch(/svc-cloud init/);
  });
});

describe("svc-cloud serve", () => {
  it("refuses an address off this machine without TLS, unless told --insecure", () => {
    const refused = runCloud(["--listen", "0.0.0.0:0"], dataFolder());
    expect(refused.status).toBe(2);
    expect(refused.stderr).toMatch(/needs --tls-cert and --tls-key/);
    expect(runCloud(["--listen", "nonsense"], dataFolder()).stderr).toMatch(/expected HOST:PORT/);
    expect(runCloud(["--tls-cert", "x.pem"], dataFolder()).stderr).toMatch(/go together/);
  });
});
