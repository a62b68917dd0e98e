// A machine of an in-process svc-cloud as svc-server is one: its part's device clients (signed in
// with the part key) and its revision stream, whose notices collect in `notices`. `stop()` ends
// the stream.
import { RobotService } from "../../proto/gen/app/v1/robot_pb.js";
import { CloudService, type RevisionNotice } from "../../proto/gen/svc/cloud/v1/cloud_pb.js";
import { createMachine } from "../../targets/cloud/storage/fleet.js";
import { signedInClient } from "./cloud-client.js";
import type { InProcessCloud } from "./cloud-in-process.js";
import { eventually } from "./eventually.js";

export async function watchedMachine(cloud: InProcessCloud, name: string) {
  const { init } = cloud;
  const made = await createMachine(cloud.server.context.store.db, { locationId: init.location_id, organizationId: init.organization_id, name, editedBy: "svc-cloud", now: cloud.clock.now() });
  const robot = await signedInClient(RobotService, cloud.url, made.partKey);
  const watch = await signedInClient(CloudService, cloud.url, made.partKey);
  const abort = new AbortController();
  const notices: RevisionNotice[] = [];
  void (async () => {
    try {
      for await (const notice of watch.watchRevisions({ partId: made.partId }, { signal: abort.signal })) notices.push(notice);
    } catch {
      // Ended by stop().
    }
  })();
  await eventually(() => (notices.length >= 1 ? true : undefined), "the stream's first notice");
  return {
    partId: made.partId,
    partKey: made.partKey,
    robot,
    notices,
    config: async () => (await robot.config({ id: made.partId })).config!,
    stop: () => abort.abort(),
  };
}
