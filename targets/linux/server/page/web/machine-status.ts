// The machine's status as GetMachineStatus tells it, in the words the page shows: the machine's
// state, the revision it runs, and each resource with its API, state and error. Modules (API
// rdk:module:process) are listed apart from the resources a card controls.
import type { RobotClient } from "@viamrobotics/sdk";

export interface ShownResource {
  /** "rdk:component:motor/left". */
  fullName: string;
  name: string;
  /** "rdk:component:motor". */
  api: string;
  subtype: string;
  state: string;
  error: string;
}

export interface ShownStatus {
  state: string;
  revision: string;
  resources: ShownResource[];
  modules: ShownResource[];
}

const MACHINE_STATES = ["UNSPECIFIED", "INITIALIZING", "RUNNING"];
const RESOURCE_STATES = ["UNSPECIFIED", "UNCONFIGURED", "CONFIGURING", "READY", "REMOVING", "UNHEALTHY"];

export async function readStatus(robot: RobotClient): Promise<ShownStatus> {
  const status = await robot.getMachineStatus();
  const all: ShownResource[] = status.resources.map((r) => {
    const n = r.name;
    const api = n ? `${n.namespace}:${n.type}:${n.subtype}` : "";
    const name = n?.name ?? "";
    return { fullName: `${api}/${name}`, name, api, subtype: n?.subtype ?? "", state: RESOURCE_STATES[r.state] ?? String(r.state), error: r.error };
  });
  const isModule = (r: ShownResource) => r.api === "rdk:module:process";
  const byName = (a: ShownResource, b: ShownResource) => a.fullName.localeCompare(b.fullName);
  return {
    state: MACHINE_STATES[status.state] ?? String(status.state),
    revision: status.config?.revision ?? "",
    resources: all.filter((r) => !isModule(r)).sort(byName),
    modules: all.filter(isModule).sort(byName),
  };
}
