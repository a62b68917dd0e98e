// Who may signal which machine, read from a call's `rpc-host` (the machine's name, as callers
// write it) and its principal.
// - A machine answers only for its own part's names (its fqdn and local_fqdn as svc-cloud makes
//   them, fleet/part-names.ts), with that part's key; a name of another part is refused naming it.
// - A caller reaches a machine it may operate (the operator role in the machine's organisation,
//   as the app's device calls need: auth/access.ts). An unknown name, a machine not answering and
//   a machine the caller may not operate all get the same NOT_FOUND, after the same work (the
//   caller's organisations are read whatever the name), so a caller learns nothing of the others.
// - A part key calls only the other parts of its own machine (they are its remotes), as a person
//   who may operate the machine would; any other host is the same NOT_FOUND as above, after the
//   same work (the calling part is read whatever the name). A part naming one of its own names is
//   told it never calls itself: it knows its own names, so that says nothing of anyone else.
import type { HandlerContext } from "@connectrpc/connect";
import { Code, SvcError } from "../../../core/index.js";
import { organizationsOf } from "../auth/access.js";
import type { Principal } from "../auth/principal.js";
import { partCloudOf } from "../fleet/part-cloud.js";
import { noMachineAnswers, type AnsweringMachine } from "../fleet/signaling-relay.js";
import type { CloudContext } from "../server/cloud-context.js";
import { findPart } from "../storage/machines-store.js";
import { roleAllows } from "../storage/roles.js";
import { boundText, LOGGED_VALUE_MAX_CHARS } from "../../../node/rpc/bounded-text.js";

/** A part's names are two; a machine may list them each once. */
const MAX_ANSWERED_HOSTS = 2;

/** A host as the relay keys it: names are matched without regard to case. */
function hostKey(text: string): string {
  return text.trim().toLowerCase();
}

/** The one machine a caller's call names in `rpc-host`. */
export function calledHost(context: HandlerContext): string {
  const host = hostKey(context.requestHeader.get("rpc-host") ?? "");
  if (host === "") throw new SvcError(Code.InvalidArgument, "rpc-host: name the machine to call (its fqdn or local_fqdn)");
  return host;
}

/** The names an Answer stream lists in `rpc-host`, comma-separated, each once. */
export function answeredHosts(context: HandlerContext): string[] {
  const hosts = [...new Set((context.requestHeader.get("rpc-host") ?? "").split(",").map(hostKey).filter((h) => h !== ""))];
  if (hosts.length === 0) throw new SvcError(Code.InvalidArgument, "rpc-host: list the names this machine answers for (its fqdn and local_fqdn), comma-separated");
  if (hosts.length > MAX_ANSWERED_HOSTS) throw new SvcError(Code.InvalidArgument, `rpc-host: a machine answers for at most ${MAX_ANSWERED_HOSTS} names, its fqdn and local_fqdn`);
  return hosts;
}

/** The machine answering `host`, when `principal` may operate it (or is a part key of the same machine); the same NOT_FOUND otherwise. */
export async function reachableMachine(cloud: CloudContext, principal: Principal, host: string): Promise<AnsweringMachine> {
  if (principal.kind === "part-key") return sameMachinePart(cloud, principal.partId, host);
  const memberships = await organizationsOf(cloud.store.db, principal);
  // Read after the wait, so a machine that just went offline is not offered.
  const machine = await cloud.signaling.answererFor(host);
  const role = machine && memberships.find((m) => m.organizationId === machine.organizationId)?.role;
  if (machine === undefined || role === undefined || !roleAllows(role, "operator")) throw noMachineAnswers(host);
  return machine;
}

/** Another part of the calling part's machine, answering `host`. */
async function sameMachinePart(cloud: CloudContext, callingPartId: string, host: string): Promise<AnsweringMachine> {
  const calling = await findPart(cloud.store.db, callingPartId);
  // Read after the wait, as above.
  const machine = await cloud.signaling.answererFor(host);
  if (machine !== undefined && machine.partId === callingPartId) {
    throw new SvcError(Code.InvalidArgument, `rpc-host ${boundText(host, LOGGED_VALUE_MAX_CHARS)} is a name of the calling part itself: a part never calls itself`);
  }
  if (machine === undefined || calling === undefined || calling.machine_id !== machine.machineId) throw noMachineAnswers(host);
  return machine;
}

/** The part a machine's Answer stream speaks for, once every host it lists is one of the part's names. */
export async function answeringPart(cloud: CloudContext, principal: Principal, hosts: readonly string[]): Promise<{ partId: string; machineId: string; organizationId: string }> {
  if (principal.kind !== "part-key") throw new SvcError(Code.PermissionDenied, "Answer is a machine's own stream: open it with the machine's part key");
  const part = await findPart(cloud.store.db, principal.partId);
  if (part === undefined) throw new SvcError(Code.NotFound, `part ${principal.partId} not found`);
  const names = await partCloudOf(cloud.store.db, part, cloud.publicUrl);
  const own = [names.fqdn, names.local_fqdn].map(hostKey);
  const foreign = hosts.find((host) => !own.includes(host));
  if (foreign !== undefined) {
    throw new SvcError(Code.PermissionDenied, `rpc-host ${boundText(foreign, LOGGED_VALUE_MAX_CHARS)} is not a name of this part (it answers for ${own.join(" and ")})`);
  }
  return { partId: part.id, machineId: part.machine_id, organizationId: part.organization_id };
}
