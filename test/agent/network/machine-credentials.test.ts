// The credentials the portal takes are saved in the shape svc-cloud writes and svc-server reads:
// `cloud.id` and `cloud.api_key`, an older robot secret replaced, the rest of the file kept, the
// file readable by root only; a file that is not JSON is never overwritten.
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { readMachineConfig } from "../../../core/index.js";
import { hasMachineCredentials, saveMachineCredentials } from "../../../targets/linux/agent/network/machine-credentials.js";
import { cloudCredentialsOf } from "../../../targets/linux/server/cloud/index.js";

const dir = mkdtempSync(join(tmpdir(), "svc-machine-credentials-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const entered = { partId: "part-1", apiKeyId: "key-1", apiKey: "k3y" };

describe("the portal's credentials in the credentials file", () => {
  it("are saved as svc-server reads them, keeping the rest of the file", async () => {
    const file = join(dir, "svc.json");
    writeFileSync(file, JSON.stringify({ cloud: { id: "old", secret: "old-secret", app_address: "https://cloud.example.com" }, network: { bind_address: "0.0.0.0:8080" } }));
    expect(hasMachineCredentials(file)).toBe(true);
    await saveMachineCredentials(file, entered);
    const saved = JSON.parse(readFileSync(file, "utf8")) as Record<string, unknown>;
    expect(saved).toEqual({
      cloud: { id: "part-1", api_key: { id: "key-1", key: "k3y" }, app_address: "https://cloud.example.com" },
      network: { bind_address: "0.0.0.0:8080" },
    });
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(hasMachineCredentials(file)).toBe(true);
    const { config } = readMachineConfig(readFileSync(file, "utf8"));
    expect(cloudCredentialsOf(config!.cloud!, false)).toMatchObject({ partId: "part-1", apiKey: { id: "key-1", key: "k3y" }, url: "https://cloud.example.com" });
  });

  it("name the svc-cloud the app gave, in place of what the file named", async () => {
    const file = join(dir, "device.json");
    writeFileSync(file, JSON.stringify({ network: { bind_address: "0.0.0.0:8080" } }));
    await saveMachineCredentials(file, { ...entered, appAddress: "https://cloud.example.com:8443/" });
    const { config } = readMachineConfig(readFileSync(file, "utf8"));
    expect(config!.cloud).toMatchObject({ id: "part-1", app_address: "https://cloud.example.com:8443" });
    expect(cloudCredentialsOf(config!.cloud!, false)).toMatchObject({ url: "https://cloud.example.com:8443" });
  });

  it("are missing from a file without a whole key, and never replace a file that is not JSON", async () => {
    const partial = join(dir, "partial.json");
    writeFileSync(partial, JSON.stringify({ cloud: { id: "part-1", api_key: { id: "key-1" } } }));
    expect(hasMachineCredentials(partial)).toBe(false);
    const broken = join(dir, "broken.json");
    writeFileSync(broken, "{ not json");
    await expect(saveMachineCredentials(broken, entered)).rejects.toThrow(/is not valid JSON.*not overwriting it/);
    expect(readFileSync(broken, "utf8")).toBe("{ not json");
  });
});
