// A machine's credentials file made anew (CreatePartCredentials): for an operator of the part's
// organisation, a new key that signs in as the part itself and reaches nothing else; a part's own
// key, another part's, or no credentials make none; and the machine's older key stays valid.
import { Code, ConnectError } from "@connectrpc/connect";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AppService } from "../../proto/gen/app/v1/app_pb.js";
import { RobotService } from "../../proto/gen/app/v1/robot_pb.js";
import { CloudService } from "../../proto/gen/svc/cloud/v1/cloud_pb.js";
import { createClient } from "@connectrpc/connect";
import { cloudTransport, signedInClient } from "../helpers/cloud-client.js";
import { startCloud, type CloudProcess, type MachineCredentials } from "../helpers/cloud-process.js";

let cloud: CloudProcess;
let rover: MachineCredentials;
let arm: MachineCredentials;
beforeAll(async () => {
  cloud = await startCloud();
  rover = cloud.createMachine("rover");
  arm = cloud.createMachine("arm");
});
afterAll(() => cloud.stop());

const codeOf = (promise: Promise<unknown>) => promise.then(() => "ok", (thrown: unknown) => Code[ConnectError.from(thrown).code]);

describe("CreatePartCredentials", () => {
  it("makes a key that is the part itself, beside the one it had", async () => {
    const owner = await signedInClient(CloudService, cloud.url, cloud.init.api_key);
    const made = await owner.createPartCredentials({ partId: rover.cloud.id });
    const file = JSON.parse(made.credentialsJson) as MachineCredentials;
    expect(file).toEqual({ cloud: { id: rover.cloud.id, api_key: { id: made.keyId, key: expect.stringMatching(/^[a-z0-9]{32}$/) }, app_address: cloud.url } });
    const device = await signedInClient(RobotService, cloud.url, file.cloud.api_key);
    expect((await device.config({ id: rover.cloud.id })).config?.cloud?.id).toBe(rover.cloud.id);
    expect(await codeOf(device.config({ id: arm.cloud.id }))).toBe("NotFound");
    expect(await codeOf((await signedInClient(AppService, cloud.url, file.cloud.api_key)).listOrganizations({}))).toBe("PermissionDenied");
    const old = await signedInClient(RobotService, cloud.url, rover.cloud.api_key);
    expect((await old.config({ id: rover.cloud.id })).config?.cloud?.id).toBe(rover.cloud.id);
  });

  it("makes none for a part's own key, another part's, or no credentials", async () => {
    const asRover = await signedInClient(CloudService, cloud.url, rover.cloud.api_key);
    expect(await codeOf(asRover.createPartCredentials({ partId: rover.cloud.id }))).toBe("PermissionDenied");
    expect(await codeOf(asRover.createPartCredentials({ partId: arm.cloud.id }))).toBe("PermissionDenied");
    const anonymous = createClient(CloudService, cloudTransport(cloud.url));
    expect(await codeOf(anonymous.createPartCredentials({ partId: rover.cloud.id }))).toBe("Unauthenticated");
    const owner = await signedInClient(CloudService, cloud.url, cloud.init.api_key);
    expect(await codeOf(owner.createPartCredentials({ partId: "no-such-part" }))).toBe("NotFound");
    expect(await codeOf(owner.createPartCredentials({ partId: "" }))).toBe("InvalidArgument");
  });
});
