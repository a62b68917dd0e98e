// What svc-agent makes of its configuration file's cloud section: none (a machine svc-cloud does
// not manage), usable credentials, or a sentence saying why not: a section without a key, and a
// key that would cross the network in clear (the agent has no -allow-insecure-creds).
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { readCloudCredentials } from "../../../targets/linux/agent/cloud/read-cloud-credentials.js";

const dir = mkdtempSync(join(tmpdir(), "svc-agent-credentials-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function read(config: unknown) {
  const file = join(dir, `${Math.random()}.json`);
  writeFileSync(file, typeof config === "string" ? config : JSON.stringify(config));
  return readCloudCredentials(file);
}

const apiKey = { id: "key-1", key: "k3y" };

describe("the agent's cloud credentials", () => {
  it("are none without a cloud section, or without a file", () => {
    expect(read({ components: [] })).toBeUndefined();
    expect(readCloudCredentials(join(dir, "absent.json"))).toBeUndefined();
  });

  it("are the part, its key and svc-cloud's address", () => {
    expect(read({ cloud: { id: "part-1", api_key: apiKey, app_address: "https://cloud.example.com/" } })).toEqual({
      partId: "part-1",
      apiKey,
      url: "https://cloud.example.com",
      refreshMs: 10_000,
    });
    expect(read({ cloud: { id: "part-1", api_key: apiKey, app_address: "http://localhost:8090" } })).toMatchObject({ url: "http://localhost:8090" });
  });

  it("say why they cannot be used, never with the key", () => {
    const clear = read({ cloud: { id: "part-1", api_key: apiKey, app_address: "http://cloud.example.com" } });
    expect(clear).toEqual({ problem: expect.stringMatching(/plain http: the part's key would cross the network unencrypted/) });
    expect(read({ cloud: { id: "part-1", app_address: "https://cloud.example.com" } })).toEqual({ problem: expect.stringMatching(/^cloud: needs the part's credentials/) });
    expect(read({ cloud: { id: "part-1", api_key: { id: "key-1", key: 5 } } })).toEqual({ problem: expect.not.stringContaining("5") });
  });
});
