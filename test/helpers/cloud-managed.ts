// A cloud-managed svc-server for tests: the real svc-cloud (a process), a machine made in it (or
// another part of one, made as the app API makes it, with a credentials file of its own), and
// svc-server started with that part's credentials file, its cache in a folder of the test's own
// (so it outlives one server and the next boots from it). `edit` changes the part's config as a
// person does through the app API; `cloudLogs` reads what the machine uploaded.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { AppService } from "../../proto/gen/app/v1/app_pb.js";
import { CloudService } from "../../proto/gen/svc/cloud/v1/cloud_pb.js";
import { signedInClient } from "./cloud-client.js";
import type { CloudProcess, MachineCredentials } from "./cloud-process.js";
import { startSvcServer, type StartOptions, type SvcServerProcess } from "./svc-server-process.js";

export interface CloudManaged {
  readonly credentials: MachineCredentials;
  readonly partId: string;
  /** Where svc-server keeps its cache and log queue (SVC_CLOUD_CACHE). */
  readonly cacheDir: string;
  /** Starts svc-server on the credentials file (bound to a free loopback port until the cloud's config says otherwise). */
  start(options?: StartOptions): Promise<SvcServerProcess>;
  /** Replaces the part's config as the app API does (on a free loopback port unless it says otherwise); resolves with svc-cloud's new revision. */
  edit(config: Record<string, unknown>): Promise<string>;
  /** The part's newest 1,000 logs in svc-cloud, oldest first. */
  cloudLogs(): Promise<{ message: string; loggerName: string; level: string }[]>;
  /** Removes the cache folder. */
  remove(): void;
}

/** Every config a test gives keeps the machine on a free loopback port, across restarts too. */
export const loopbackNetwork = { bind_address: "localhost:0" };

export function cloudManagedMachine(cloud: CloudProcess, name: string): Promise<CloudManaged> {
  return managedPart(cloud, cloud.createMachine(name));
}

/** Another part named `name` of the machine `machine` is the main part of. */
export async function cloudManagedPart(cloud: CloudProcess, machine: CloudManaged, name: string): Promise<CloudManaged> {
  const app = await signedInClient(AppService, cloud.url, cloud.init.api_key);
  const { part } = await app.getRobotPart({ id: machine.partId });
  const { partId } = await app.newRobotPart({ robotId: part!.robot, partName: name });
  const made = await (await signedInClient(CloudService, cloud.url, cloud.init.api_key)).createPartCredentials({ partId });
  return managedPart(cloud, JSON.parse(made.credentialsJson) as MachineCredentials);
}

async function managedPart(cloud: CloudProcess, credentials: MachineCredentials): Promise<CloudManaged> {
  const partId = credentials.cloud.id;
  const cacheDir = mkdtempSync(join(tmpdir(), "svc-cloud-cache-"));
  const app = await signedInClient(AppService, cloud.url, cloud.init.api_key);
  const device = await signedInClient(CloudService, cloud.url, credentials.cloud.api_key);
  return {
    credentials,
    partId,
    cacheDir,
    start: (options = {}) =>
      startSvcServer({ ...credentials }, { ...options, env: { SVC_CLOUD_CACHE: cacheDir, ...options.env } }),
    async edit(config) {
      await app.updateRobotPart({ id: partId, name: "", robotConfig: { network: loopbackNetwork, ...config } as never });
      return (await device.machineConfig({ partId })).revision;
    },
    async cloudLogs() {
      const { logs } = await app.getRobotPartLogs({ id: partId, limit: 1000n });
      // Newest first, in the order they arrived within one millisecond: reversed, the order they were sent.
      return logs
        .reverse()
        .map((entry) => ({ message: entry.message, loggerName: entry.loggerName, level: entry.level }));
    },
    remove: () => rmSync(cacheDir, { recursive: true, force: true }),
  };
}
