// AppService's machines: listed per location, made with their main part (and its key), renamed or
// moved, deleted with all their parts. Readers need the viewer role, changes the operator role.
import type { ServiceImpl } from "@connectrpc/connect";
import { Code, SvcError } from "../../../core/index.js";
import type { AppService } from "../../../proto/gen/app/v1/app_pb.js";
import { principalName } from "../auth/principal.js";
import { callerOf } from "../server/caller.js";
import type { CloudContext } from "../server/cloud-context.js";
import { createMachine } from "../storage/fleet.js";
import { deleteMachine, machinesIn, partsOf, updateMachine } from "../storage/machines-store.js";
import { requireLocationRole, requireMachineRole } from "./app-access.js";
import { checkName } from "./app-names.js";
import { robotMessage } from "./app-wire.js";
import { machineSummaries } from "./app-summaries.js";

export function appMachines(cloud: CloudContext): Partial<ServiceImpl<typeof AppService>> {
  const { db } = cloud.store;
  const robot = async (machine: Parameters<typeof robotMessage>[0]) => robotMessage(machine, await partsOf(db, [machine.id]), cloud.clock.now());

  return {
    async listRobots(request, context) {
      const location = await requireLocationRole(db, callerOf(context), request.locationId, "viewer");
      const machines = await machinesIn(db, location.id);
      const parts = await partsOf(db, machines.map((m) => m.id));
      const now = cloud.clock.now();
      return { robots: machines.map((m) => robotMessage(m, parts.filter((p) => p.machine_id === m.id), now)) };
    },

    async getRobot(request, context) {
      const machine = await requireMachineRole(db, callerOf(context), request.id, "viewer");
      return { robot: await robot(machine) };
    },

    async newRobot(request, context) {
      const principal = callerOf(context);
      const location = await requireLocationRole(db, principal, request.location, "operator");
      const name = checkName("name", request.name);
      const made = await createMachine(db, { locationId: location.id, organizationId: location.organization_id, name, editedBy: principalName(principal), now: cloud.clock.now() });
      return { id: made.machineId };
    },

    async updateRobot(request, context) {
      const principal = callerOf(context);
      const machine = await requireMachineRole(db, principal, request.id, "operator");
      const name = checkName("name", request.name);
      const locationId = request.location === "" ? machine.location_id : request.location;
      const location = await requireLocationRole(db, principal, locationId, "operator");
      if (location.organization_id !== machine.organization_id) throw new SvcError(Code.InvalidArgument, `location ${locationId}: a machine moves only between locations of its own organisation`);
      await updateMachine(db, machine.id, { name, locationId: location.id });
      return { robot: await robot({ ...machine, name, location_id: location.id }) };
    },

    async deleteRobot(request, context) {
      const machine = await requireMachineRole(db, callerOf(context), request.id, "operator");
      await deleteMachine(db, machine.id, cloud.clock.now());
      return {};
    },

    listMachineSummaries: (request, context) => machineSummaries(cloud, callerOf(context), request),
  };
}
