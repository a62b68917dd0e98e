// The figures the Diagnostics section always charts, by their FTDC metric names (see the server's
// "Diagnostics data (FTDC)"), each with the words shown above its chart. Resources by state are
// charted for READY always and for any other state that had a resource in it within the hour.
export interface Figure {
  metric: string;
  label: string;
}

export const MAIN_FIGURES: readonly Figure[] = [
  { metric: "process.cpu_user_pct", label: "CPU, user (% of one core)" },
  { metric: "process.cpu_system_pct", label: "CPU, system (% of one core)" },
  { metric: "process.rss_bytes", label: "Resident memory (bytes)" },
  { metric: "process.heap_used_bytes", label: "V8 heap used (bytes)" },
  { metric: "process.event_loop_delay_mean_ms", label: "Event loop delay, mean (ms)" },
  { metric: "process.event_loop_delay_max_ms", label: "Event loop delay, max (ms)" },
  { metric: "api.calls", label: "API calls since start" },
  { metric: "api.errors", label: "API errors since start" },
];

const STATES = ["READY", "CONFIGURING", "UNHEALTHY", "UNCONFIGURED", "REMOVING"];

export const STATE_FIGURES: readonly Figure[] = STATES.map((state) => ({ metric: `graph.resources.${state}`, label: `Resources ${state}` }));

/** Whether a state's chart is worth showing: READY always, another state once a resource was in it. */
export function stateShown(figure: Figure, values: readonly number[]): boolean {
  return figure.metric === "graph.resources.READY" || values.some((v) => v !== 0);
}

export const CHARTED = new Set([...MAIN_FIGURES, ...STATE_FIGURES].map((f) => f.metric));
