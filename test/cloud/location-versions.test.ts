// The versions of a whole location: what each part's config asks its machine to install beside what
// its agent reported (GetLocationVersions), and one change for every part at once
// (SetLocationVersions): all or none, a new revision only where something changed, the machine's
// Config saying it; for an operator of the location's organisation.
import { Code, ConnectError, createClient } from "@connectrpc/connect";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AppService } from "../../proto/gen/app/v1/app_pb.js";
import { RobotService } from "../../proto/gen/app/v1/robot_pb.js";
import { CloudService } from "../../proto/gen/svc/cloud/v1/cloud_pb.js";
import { cloudTransport, signedInClient } from "../helpers/cloud-client.js";
import { startCloud, type CloudProcess, type MachineCredentials } from "../helpers/cloud-process.js";

let cloud: CloudProcess;
let rover: MachineCredentials;
let arm: MachineCredentials;
let dev: MachineCredentials;
beforeAll(async () => {
  cloud = await startCloud();
  rover = cloud.createMachine("rover");
  arm = cloud.createMachine("arm");
  dev = cloud.createMachine("dev-bench");
  const app = await signedInClient(AppService, cloud.url, cloud.init.api_key);
  await app.updateRobotPart({ id: arm.cloud.id, name: "", robotConfig: { agent: { version_control: { agent: "dev" } }, debug: true } });
  await app.updateRobotPart({ id: dev.cloud.id, name: "", robotConfig: { agent: { version_control: { "svc-server": "dev" } } } });
});
afterAll(() => cloud.stop());

const codeOf = (promise: Promise<unknown>) => promise.then(() => "ok", (thrown: unknown) => Code[ConnectError.from(thrown).code]);
const locationId = () => cloud.init.location_id;

async function versions() {
  const owner = await signedInClient(CloudService, cloud.url, cloud.init.api_key);
  const { parts } = await owner.getLocationVersions({ locationId: locationId() });
  return Object.fromEntries(parts.map((p) => [p.machineName, [p.svcServer, p.svcAgent]]));
}

describe("a location's versions", () => {
  it("lists what each part asks for, and changes every part that differs in one step", async () => {
    expect(await versions()).toEqual({ arm: ["stable", "dev"], "dev-bench": ["dev", "stable"], rover: ["stable", "stable"] });
    const owner = await signedInClient(CloudService, cloud.url, cloud.init.api_key);
    const app = await signedInClient(AppService, cloud.url, cloud.init.api_key);
    const history = async (part: MachineCredentials) => (await app.getRobotPartHistory({ id: part.cloud.id })).history.length;
    const before = { rover: await history(rover), arm: await history(arm), dev: await history(dev) };
    const device = await signedInClient(RobotService, cloud.url, rover.cloud.api_key);
    const served = async () => (await device.config({ id: rover.cloud.id })).config?.revision;
    const servedBefore = await served();

    expect((await owner.setLocationVersions({ locationId: locationId(), svcServer: "dev" })).partsChanged).toBe(2);
    expect(await versions()).toEqual({ arm: ["dev", "dev"], "dev-bench": ["dev", "stable"], rover: ["dev", "stable"] });
    expect([await history(rover), await history(arm), await history(dev)]).toEqual([before.rover + 1, before.arm + 1, before.dev]);
    // The rest of each config is as it was, and the machine is served the new revision.
    expect(JSON.parse((await app.getRobotPart({ id: arm.cloud.id })).configJson)).toEqual({ agent: { version_control: { agent: "dev", "svc-server": "dev" } }, debug: true });
    expect(Number(await served())).toBe(Number(servedBefore) + 1);

    // "stable" is what nothing asks for: the entries go, and an agent section left empty with them.
    expect((await owner.setLocationVersions({ locationId: locationId(), svcServer: "stable", svcAgent: "stable" })).partsChanged).toBe(3);
    expect(await versions()).toEqual({ arm: ["stable", "stable"], "dev-bench": ["stable", "stable"], rover: ["stable", "stable"] });
    expect(JSON.parse((await app.getRobotPart({ id: rover.cloud.id })).configJson)).toEqual({});
  });

  it("changes no part when the spec would be refused", async () => {
    const owner = await signedInClient(CloudService, cloud.url, cloud.init.api_key);
    const app = await signedInClient(AppService, cloud.url, cloud.init.api_key);
    const revision = async () => (await app.getRobotPartHistory({ id: rover.cloud.id })).history.length;
    const before = await revision();
    const refused = owner.setLocationVersions({ locationId: locationId(), svcAgent: "not a version!" });
    await expect(refused).rejects.toThrow(/no part was changed: part .* would be refused: .*version_control/);
    expect(await revision()).toBe(before);
    expect(await codeOf(owner.setLocationVersions({ locationId: locationId() }))).toBe("InvalidArgument");
  });

  it("answers no one without credentials or with a part's key, and no location that is not there", async () => {
    const asRover = await signedInClient(CloudService, cloud.url, rover.cloud.api_key);
    expect(await codeOf(asRover.getLocationVersions({ locationId: locationId() }))).toBe("PermissionDenied");
    expect(await codeOf(asRover.setLocationVersions({ locationId: locationId(), svcServer: "dev" }))).toBe("PermissionDenied");
    const anonymous = createClient(CloudService, cloudTransport(cloud.url));
    expect(await codeOf(anonymous.setLocationVersions({ locationId: locationId(), svcServer: "dev" }))).toBe("Unauthenticated");
    const owner = await signedInClient(CloudService, cloud.url, cloud.init.api_key);
    expect(await codeOf(owner.getLocationVersions({ locationId: "no-such-location" }))).toBe("NotFound");
  });
});
