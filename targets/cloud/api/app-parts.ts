// AppService's parts: read with their own config, made and deleted (never the main part), renamed
// and edited. An edit is checked by the machine's own parser, then with the fragments it lists,
// saved as a new revision (refused as a conflict when it started from an older revision than the
// newest) and pushed to the machine at once.
import type { ServiceImpl } from "@connectrpc/connect";
import { timestampMs } from "@bufbuild/protobuf/wkt";
import type { AppService } from "../../../proto/gen/app/v1/app_pb.js";
import { requirePartRole } from "../auth/access.js";
import { principalName } from "../auth/principal.js";
import { checkPartConfig } from "../fleet/check-part-config.js";
import { callerOf } from "../server/caller.js";
import type { CloudContext } from "../server/cloud-context.js";
import { addPart, checkPartNameFree, currentConfigs, deletePart, findMachine, markForRestart, partsOf, renamePart } from "../storage/machines-store.js";
import { saveRevision } from "../storage/revisions.js";
import type { PartsTable } from "../storage/tables.js";
import { requireMachineRole } from "./app-access.js";
import { checkOwnConfig } from "./app-config-check.js";
import { checkName, requireId } from "./app-names.js";
import { robotPartMessage } from "./app-wire.js";

export function appParts(cloud: CloudContext): Partial<ServiceImpl<typeof AppService>> {
  const { db } = cloud.store;

  const locationOf = async (part: PartsTable) => (await findMachine(db, part.machine_id))?.location_id ?? "";
  const partMessage = async (part: PartsTable) => {
    const config = (await currentConfigs(db, [part.id])).get(part.id) ?? {};
    return { message: robotPartMessage(part, await locationOf(part), cloud.clock.now(), config), config };
  };

  return {
    async getRobotParts(request, context) {
      const machine = await requireMachineRole(db, callerOf(context), request.robotId, "viewer");
      const parts = await partsOf(db, [machine.id]);
      const configs = await currentConfigs(db, parts.map((p) => p.id));
      const now = cloud.clock.now();
      return { parts: parts.map((p) => robotPartMessage(p, machine.location_id, now, configs.get(p.id))) };
    },

    async getRobotPart(request, context) {
      const part = await requirePartRole(db, callerOf(context), requireId("id", request.id), "viewer");
      const { message, config } = await partMessage(part);
      return { part: message, configJson: JSON.stringify(config, null, 2) };
    },

    async newRobotPart(request, context) {
      const principal = callerOf(context);
      const machine = await requireMachineRole(db, principal, request.robotId, "operator");
      const name = checkName("part_name", request.partName);
      const { partId } = await addPart(db, { machineId: machine.id, organizationId: machine.organization_id, name, editedBy: principalName(principal), now: cloud.clock.now() });
      return { partId };
    },

    async updateRobotPart(request, context) {
      const principal = callerOf(context);
      const part = await requirePartRole(db, principal, requireId("id", request.id), "operator");
      const name = request.name === "" ? part.name : checkName("name", request.name);
      // Before the config is saved, so a name that clashes changes nothing; the rename checks again.
      if (name !== part.name) await checkPartNameFree(db, part.machine_id, name, part.id);
      if (request.robotConfig !== undefined) {
        const config = checkOwnConfig("robot_config", request.robotConfig);
        const basedOn = request.lastKnownUpdate === undefined ? undefined : timestampMs(request.lastKnownUpdate);
        // The fragments it lists are checked in the saving transaction, so none changes in between.
        const check = async (tx: typeof db) => void (await checkPartConfig(tx, part.organization_id, config));
        cloud.revisions.publish(await saveRevision(db, { partId: part.id, config, editedBy: principalName(principal), now: cloud.clock.now(), basedOn, check }));
      }
      if (name !== part.name) await renamePart(db, part.id, name);
      const updated = await requirePartRole(db, principal, part.id, "viewer");
      return { part: (await partMessage(updated)).message };
    },

    async deleteRobotPart(request, context) {
      const part = await requirePartRole(db, callerOf(context), requireId("part_id", request.partId), "operator");
      await deletePart(db, part.id, cloud.clock.now());
      return {};
    },

    async markPartForRestart(request, context) {
      const part = await requirePartRole(db, callerOf(context), requireId("part_id", request.partId), "operator");
      await markForRestart(db, part.id);
      return {};
    },
  };
}
