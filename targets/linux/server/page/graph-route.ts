// `GET /page/api/graph`: the machine's resources as a graph for the control page to draw: each
// resource with its state and error, and an edge from each to every resource it depends on
// (its `depends_on` and what its model finds in its attributes), as the running configuration
// says. A reference no resource answers to is left out: the resource's own error says so.
import { validateResourceConfig, type Machine, type ResourceConfig } from "../../../../core/index.js";
import type { HttpRoute } from "../transport/index.js";
import type { PageGuard } from "./page-guard.js";
import { answerRefusal, sendJson } from "./page-http.js";

export interface GraphEdge {
  from: string;
  to: string;
  required: boolean;
}

export function graphRoute(machine: Machine, guard: PageGuard): HttpRoute {
  return {
    method: "GET",
    path: "/page/api/graph",
    handler: async (req, res) => {
      try {
        await guard.read(req);
      } catch (thrown) {
        return answerRefusal(res, thrown);
      }
      const nodes = machine.engine.status().resources.map((r) => ({ name: r.name, state: r.state, error: r.error ?? "" }));
      sendJson(res, 200, { nodes, edges: edgesOf(machine, nodes.map((n) => n.name)) });
    },
  };
}

function edgesOf(machine: Machine, names: readonly string[]): GraphEdge[] {
  const config = machine.current()?.config;
  if (!config) return [];
  const known = new Set(names);
  const bySimple = new Map<string, string[]>();
  for (const name of names) {
    const simple = name.slice(name.lastIndexOf("/") + 1);
    bySimple.set(simple, [...(bySimple.get(simple) ?? []), name]);
  }
  const resolve = (reference: string) => (known.has(reference) ? reference : bySimple.get(reference)?.length === 1 ? bySimple.get(reference)![0] : undefined);
  const edges: GraphEdge[] = [];
  const entries: Array<[ResourceConfig, string]> = [
    ...config.components.map((c, i): [ResourceConfig, string] => [c, `components[${i}]`]),
    ...config.services.map((s, i): [ResourceConfig, string] => [s, `services[${i}]`]),
  ];
  for (const [entry, path] of entries) {
    const from = resolve(`${entry.api}/${entry.name}`);
    if (from === undefined) continue;
    const found = validateResourceConfig(machine.registry, entry, path);
    const references = [...(entry.depends_on ?? []).map((r) => [r, true] as const), ...found.requires.map((r) => [r, true] as const), ...found.optional.map((r) => [r, false] as const)];
    const seen = new Set<string>();
    for (const [reference, required] of references) {
      const to = resolve(reference);
      if (to === undefined || to === from || seen.has(to)) continue;
      seen.add(to);
      edges.push({ from, to, required });
    }
  }
  return edges;
}
