// A device set up the way the mobile app sets one up, end to end with real processes on loopback:
// svc-agent installed without credentials runs svc-server (from svc-cloud's release index) on the
// device's own configuration file. The app makes a machine with a provisioning key
// (`POST /api/json1/provision`, the fragment the device names) and the portal's own code saves the
// credentials it got into that file. From then on the agent follows svc-cloud (its versions reach
// the part) and svc-server restarts to follow it too: it reports running the part's revision, and
// the official SDK reads the fragment's sensor from it. Time runs 100 times faster.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as VIAM from "@viamrobotics/sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CloudService } from "../../../proto/gen/svc/cloud/v1/cloud_pb.js";
import { saveMachineCredentials } from "../../../targets/linux/agent/network/machine-credentials.js";
import { fetchRestartStatus } from "../../../targets/linux/agent/server/restart-status.js";
import { installAgent, packageRelease, startAgentProcess, type AgentProcess } from "../../helpers/agent-fixture.js";
import { signedInClient } from "../../helpers/cloud-client.js";
import { startCloud, type CloudProcess, type MachineCredentials } from "../../helpers/cloud-process.js";
import { eventually } from "../../helpers/eventually.js";
import { freePort } from "../../helpers/free-port.js";
import { dialSdk } from "../../helpers/sdk-robot.js";

const OWNER = { email: "owner@example.com", password: "correct horse battery" };
const until = <T>(what: string, probe: () => T | undefined | Promise<T | undefined>, timeoutMs = 120_000) =>
  eventually(probe, what, { timeoutMs }).catch((error: Error) => {
    throw new Error(`${error.message}\n--- agent output (end) ---\n${agent?.output().slice(-8000)}`);
  });

let work: string;
let root: string;
let cloud: CloudProcess;
let agent: AgentProcess | undefined;
let configFile: string;
let port: number;
let fragmentId: string;
let key: { id: string; key: string };

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), "svc-agent-provisioned-"));
  root = join(work, "device");
  const releases = join(work, "releases");
  mkdirSync(releases, { recursive: true });
  const release = packageRelease("1.0.0", releases);
  cloud = await startCloud(OWNER);
  const added = cloud.run(["release", "add", releases]);
  if (added.status !== 0) throw new Error(`release add failed: ${added.stderr}`);
  port = await freePort();
  const app = (await VIAM.createViamClient({ serviceHost: cloud.url, credentials: { type: "api-key", authEntity: cloud.init.api_key.id, payload: cloud.init.api_key.key } })).appClient;
  // The fragment every device of the product runs: a sensor, on the port the device serves.
  const fragment = { network: { bind_address: `127.0.0.1:${port}` }, components: [{ name: "beacon", api: "rdk:component:sensor", model: "fake" }] };
  fragmentId = (await app.createFragment(cloud.init.organization_id, "field unit", VIAM.Struct.fromJson(fragment)))!.id;
  const grant = (resourceType: string, resourceId: string) =>
    ({ authorizationType: "role", authorizationId: "provisioning", resourceType, resourceId, identityId: "", organizationId: cloud.init.organization_id, identityType: "api-key" }) as VIAM.appApi.Authorization;
  key = await app.createKey([grant("location", cloud.init.location_id), grant("fragment", fragmentId)], "field app");
  // The device as it leaves the factory: the agent, and a configuration naming the fragment.
  configFile = join(work, "svc.json");
  writeFileSync(configFile, JSON.stringify({ network: { bind_address: `127.0.0.1:${port}` }, agent: { network_configuration: { fragment_id: fragmentId } } }));
  const agentExecutable = installAgent(root, release.agent, "1.0.0");
  agent = startAgentProcess(agentExecutable, ["-c", configFile, "--defaults", join(work, "none.json")], {
    SVC_AGENT_ROOT: root,
    SVC_AGENT_RELEASE_INDEX: `${cloud.url}/releases/index.json`,
    SVC_AGENT_TIME_SCALE: "0.01",
    HOME: join(root, "home"),
  });
}, 240_000);

afterAll(async () => {
  await agent?.stop();
  await cloud?.stop();
  rmSync(work, { recursive: true, force: true });
});

describe("a device provisioned from the mobile app", () => {
  it("follows svc-cloud once the portal saved the credentials the app got with a provisioning key", async () => {
    await until("svc-server serving the device's own configuration", () => fetchRestartStatus(`http://127.0.0.1:${port}/restart_status`, 1_000));

    // The app: a machine for this device, from the fragment the device names.
    const res = await fetch(`${cloud.url}/api/json1/provision`, {
      method: "POST",
      headers: { "content-type": "application/json", key_id: key.id, key: key.key },
      body: JSON.stringify({ name: "field-unit-1", fragment_id: fragmentId }),
    });
    expect(res.status).toBe(201);
    const credentials = (await res.json()) as MachineCredentials;
    const partId = credentials.cloud.id;
    // The portal: what the app sent it, saved into the configuration file.
    await saveMachineCredentials(configFile, { partId, apiKeyId: credentials.cloud.api_key.id, apiKey: credentials.cloud.api_key.key, appAddress: credentials.cloud.app_address });
    expect(JSON.parse(readFileSync(configFile, "utf8")).cloud).toMatchObject({ id: partId, app_address: cloud.url });

    const owner = await signedInClient(CloudService, cloud.url, cloud.init.api_key);
    // The agent reports what it runs to the new part; svc-server, restarted, runs the part's revision.
    const status = await until("the machine online in svc-cloud", async () => {
      const now = await owner.getPartStatus({ partId });
      return now.svcAgent === "1.0.0" && now.svcServer === "1.0.0" && now.runningRevision === now.revision ? now : undefined;
    });
    expect(status.refusedRevision).toBe("");
    expect(agent!.output()).toContain("the configuration file is now a machine's credentials file; restarting to follow svc-cloud");
    const robot = await until("the server answering the SDK", () => dialSdk(`http://localhost:${port}`).catch(() => undefined));
    try {
      expect((await robot.resourceNames()).map((n) => n.name)).toContain("beacon");
      expect((await robot.getCloudMetadata()).machinePartId).toBe(partId);
    } finally {
      await robot.disconnect();
    }
  }, 240_000);
});
