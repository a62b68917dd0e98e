// Who uses a fragment (ListFragmentUsers), as the web app's fragment page shows it: every part whose
// current config reaches it, directly or through a fragment it lists, with its machine and the
// overrides it makes of that fragment; for people of the organisation only.
import { Code, ConnectError, createClient } from "@connectrpc/connect";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AppService } from "../../proto/gen/app/v1/app_pb.js";
import { CloudService } from "../../proto/gen/svc/cloud/v1/cloud_pb.js";
import { cloudTransport, signedInClient } from "../helpers/cloud-client.js";
import { startCloud, type CloudProcess, type MachineCredentials } from "../helpers/cloud-process.js";

let cloud: CloudProcess;
let rover: MachineCredentials;
let arm: MachineCredentials;
let lamp: string;
beforeAll(async () => {
  cloud = await startCloud();
  rover = cloud.createMachine("rover");
  arm = cloud.createMachine("arm");
  cloud.createMachine("idle");
  const app = await signedInClient(AppService, cloud.url, cloud.init.api_key);
  const organizationId = cloud.init.organization_id;
  lamp = (await app.createFragment({ organizationId, name: "lamp", config: { components: [{ name: "lamp", api: "rdk:component:generic", model: "fake" }] } })).fragment!.id;
  const kit = (await app.createFragment({ organizationId, name: "kit", config: { fragments: [lamp] } })).fragment!.id;
  const mods = [{ $set: { "components.lamp.attributes.brightness": 3 } }];
  await app.updateRobotPart({ id: rover.cloud.id, name: "", robotConfig: { fragments: [lamp], fragment_mods: [{ fragment_id: lamp, mods }] } });
  await app.updateRobotPart({ id: arm.cloud.id, name: "", robotConfig: { fragments: [kit] } });
});
afterAll(() => cloud.stop());

const codeOf = (promise: Promise<unknown>) => promise.then(() => "ok", (thrown: unknown) => Code[ConnectError.from(thrown).code]);

describe("ListFragmentUsers", () => {
  it("lists each part that uses the fragment, how, and the overrides it makes", async () => {
    const owner = await signedInClient(CloudService, cloud.url, cloud.init.api_key);
    const { users } = await owner.listFragmentUsers({ fragmentId: lamp });
    const byName = Object.fromEntries(users.map((u) => [u.partName, u]));
    expect(Object.keys(byName).sort()).toEqual(["arm-main", "rover-main"]);
    expect(byName["rover-main"]).toMatchObject({ partId: rover.cloud.id, machineName: "rover", direct: true });
    expect(JSON.parse(byName["rover-main"]!.modsJson)).toEqual([{ $set: { "components.lamp.attributes.brightness": 3 } }]);
    expect(byName["arm-main"]).toMatchObject({ partId: arm.cloud.id, machineName: "arm", direct: false, modsJson: "" });
  });

  it("answers no one without credentials, a part's own key, or for a fragment that is not there", async () => {
    const asRover = await signedInClient(CloudService, cloud.url, rover.cloud.api_key);
    expect(await codeOf(asRover.listFragmentUsers({ fragmentId: lamp }))).toBe("PermissionDenied");
    const anonymous = createClient(CloudService, cloudTransport(cloud.url));
    expect(await codeOf(anonymous.listFragmentUsers({ fragmentId: lamp }))).toBe("Unauthenticated");
    const owner = await signedInClient(CloudService, cloud.url, cloud.init.api_key);
    expect(await codeOf(owner.listFragmentUsers({ fragmentId: "no-such-fragment" }))).toBe("NotFound");
    expect(await codeOf(owner.listFragmentUsers({ fragmentId: "" }))).toBe("InvalidArgument");
  });
});
