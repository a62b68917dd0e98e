// The machine's resources drawn as a graph (SVG): a box for each, coloured by its state, and an
// arrow from each to what it depends on (dashed when the dependency is optional). Read again when
// the revision changes and every three seconds, so states follow the machine.
import { Problem } from "../../../../web-ui/problem.js";
import { usePolled } from "../../../../web-ui/use-polled.js";
import { layOut, type GraphEdge, type GraphNode, type PlacedNode } from "./graph-layout.js";
import type { PageApi } from "./session.js";

const BOX = { width: 200, height: 44, gapX: 70, gapY: 18 };

const position = (node: PlacedNode) => ({ x: 10 + node.column * (BOX.width + BOX.gapX), y: 10 + node.row * (BOX.height + BOX.gapY) });

export function ResourceGraph(props: { api: PageApi; revision: string }) {
  const graph = usePolled(() => props.api.get<{ nodes: GraphNode[]; edges: GraphEdge[] }>("/page/api/graph"), 3000, [props.api, props.revision]);
  const { placed, columns, rows } = layOut(graph.answer?.nodes ?? [], graph.answer?.edges ?? []);
  const at = new Map(placed.map((node) => [node.name, position(node)]));
  const width = 20 + Math.max(1, columns) * (BOX.width + BOX.gapX) - BOX.gapX;
  const height = 20 + Math.max(1, rows) * (BOX.height + BOX.gapY) - BOX.gapY;
  return (
    <section aria-label="Resource graph">
      <h2>Resource graph</h2>
      <Problem text={graph.problem} />
      <div class="scroll">
        <svg class="graph" role="img" aria-label="Resources and their dependencies" width={width} height={height} viewBox={`0 0 ${width} ${height}`}>
          <defs>
            <marker id="arrow" viewBox="0 0 10 10" refX="10" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse">
              <path d="M 0 0 L 10 5 L 0 10 z" />
            </marker>
          </defs>
          {(graph.answer?.edges ?? []).map((edge) => {
            const from = at.get(edge.from);
            const to = at.get(edge.to);
            if (!from || !to) return null;
            return (
              <line
                key={`${edge.from}>${edge.to}`}
                class={edge.required ? "edge" : "edge optional"}
                data-from={edge.from}
                data-to={edge.to}
                x1={from.x}
                y1={from.y + BOX.height / 2}
                x2={to.x + BOX.width}
                y2={to.y + BOX.height / 2}
                marker-end="url(#arrow)"
              />
            );
          })}
          {placed.map((node) => {
            const { x, y } = position(node);
            const simple = node.name.slice(node.name.lastIndexOf("/") + 1);
            return (
              <g key={node.name} class={`node state-${node.state}`} data-name={node.name}>
                <title>{`${node.name}: ${node.state}${node.error ? ` (${node.error})` : ""}`}</title>
                <rect x={x} y={y} width={BOX.width} height={BOX.height} rx="6" />
                <text x={x + 10} y={y + 18}>
                  {simple.length > 24 ? `${simple.slice(0, 23)}…` : simple}
                </text>
                <text x={x + 10} y={y + 35} class="node-state">
                  {node.state}
                </text>
              </g>
            );
          })}
        </svg>
      </div>
    </section>
  );
}
