// The data manager service on the real svc-server, through the official SDK's DataManagerClient:
// configured as Viam's configurations write it (model "builtin", or no model at all, with Viam's
// attributes) or as `fake`, it runs, says in the log that it has nothing to sync, and answers
// Sync at once since svc captures no data; uploading into datasets is UNIMPLEMENTED, naming it,
// and a data manager not configured is NOT_FOUND.
import * as VIAM from "@viamrobotics/sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eventually } from "../helpers/eventually.js";
import { logLines } from "../helpers/log-lines.js";
import { dialSdk, fullName } from "../helpers/sdk-robot.js";
import { startSvcServer, type SvcServerProcess } from "../helpers/svc-server-process.js";

const DATA_MANAGER = "rdk:service:data_manager";
// viam.app.datasync.v1.MimeType.MIME_TYPE_IMAGE_PNG; the SDK does not export the enum.
const MIME_TYPE_IMAGE_PNG = 2;

describe("a data manager through the official SDK", () => {
  let server: SvcServerProcess;
  let robot: VIAM.RobotClient;
  const manager = (name = "data") => new VIAM.DataManagerClient(robot, name);

  beforeAll(async () => {
    server = await startSvcServer({
      services: [
        { name: "data", type: "data_manager", model: "builtin", attributes: { capture_dir: "/tmp/capture", sync_interval_mins: 0.1, tags: ["a", "b"], capture_disabled: false } },
        { name: "unnamed", type: "data_manager" },
        { name: "fake", api: DATA_MANAGER, model: "fake" },
      ],
    });
    robot = await dialSdk(server.sdkHost);
  });

  afterAll(async () => {
    await robot?.disconnect();
    await server?.stop();
  });

  it("is READY however it is written and listed in ResourceRPCSubtypes with its service", async () => {
    const status = await robot.getMachineStatus();
    const states = Object.fromEntries(status.resources.map((r) => [fullName(r.name!), VIAM.robotApi.ResourceStatus_State[r.state]]));
    expect(states).toMatchObject({ [`${DATA_MANAGER}/data`]: "READY", [`${DATA_MANAGER}/unnamed`]: "READY", [`${DATA_MANAGER}/fake`]: "READY" });
    const subtypes = await robot.resourceRPCSubtypes();
    expect(subtypes.map((s) => `${s.subtype?.namespace}:${s.subtype?.type}:${s.subtype?.subtype} ${s.protoService}`)).toContain(
      `${DATA_MANAGER} viam.service.datamanager.v1.DataManagerService`,
    );
    const said = () => logLines(server.stdout()).filter((l) => l.msg.startsWith("svc captures no data yet: this data manager has nothing to sync"));
    const loggers = await eventually(() => (said().length === 3 ? said().map((l) => l.logger) : undefined), "a line from each data manager");
    expect(loggers.sort()).toEqual(["data", "fake", "unnamed"].map((name) => `rdk.resource_manager.${DATA_MANAGER}/${name}`));
  });

  it("syncs at once, there being nothing to upload", async () => {
    for (const name of ["data", "unnamed", "fake"]) await expect(manager(name).sync()).resolves.toBeUndefined();
  });

  it("answers UNIMPLEMENTED for an upload into datasets, NOT_FOUND for a data manager not configured, and echoes DoCommand", async () => {
    const upload = manager().uploadBinaryDataToDatasets(new Uint8Array([1, 2]), ["tag"], ["dataset"], MIME_TYPE_IMAGE_PNG);
    await expect(upload).rejects.toMatchObject({ code: 12, message: expect.stringContaining(`${DATA_MANAGER}/data does not support UploadBinaryDataToDatasets`) });
    await expect(manager("nope").sync()).rejects.toMatchObject({ code: 5 });
    expect(await manager().doCommand(VIAM.Struct.fromJson({ sync: "now" }))).toEqual({ sync: "now" });
  });
});
