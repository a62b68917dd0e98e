// The machine's resource graph: how many resources are in each state (every state named, so
// the schema stays put), whether a configuration is being applied, and how many loads ran.
import type { Machine, MetricTree, ResourceState } from "../../../../core/index.js";
import type { FtdcSource } from "./ftdc-source.js";

const states: readonly ResourceState[] = ["CONFIGURING", "READY", "REMOVING", "UNCONFIGURED", "UNHEALTHY"];

export function graphMetrics(machine: Pick<Machine, "engine" | "onConfig">): FtdcSource {
  let reconfigurations = 0;
  const unsubscribe = machine.onConfig((event) => {
    if (event.kind === "loaded") reconfigurations++;
  });
  return {
    sample() {
      const status = machine.engine.status();
      const resources: MetricTree = {};
      for (const state of states) resources[state] = 0;
      for (const resource of status.resources) resources[resource.state] = ((resources[resource.state] as number | undefined) ?? 0) + 1;
      return { graph: { resources, reconfiguring: status.reconfiguring, reconfigurations } };
    },
    close: unsubscribe,
  };
}
