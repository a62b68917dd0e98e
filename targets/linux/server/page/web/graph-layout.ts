// Where each resource of the graph is drawn: in columns by depth (a resource one column right of
// the deepest resource it depends on, those depending on nothing in the first), in rows within its
// column by name. Edges of a cycle, which the machine refuses, do not move anything further.
export interface GraphNode {
  name: string;
  state: string;
  error: string;
}

export interface GraphEdge {
  from: string;
  to: string;
  required: boolean;
}

export interface PlacedNode extends GraphNode {
  column: number;
  row: number;
}

export function layOut(nodes: readonly GraphNode[], edges: readonly GraphEdge[]): { placed: PlacedNode[]; columns: number; rows: number } {
  const dependsOn = new Map<string, string[]>();
  for (const edge of edges) dependsOn.set(edge.from, [...(dependsOn.get(edge.from) ?? []), edge.to]);
  const depth = new Map<string, number>();
  const visiting = new Set<string>();
  const depthOf = (name: string): number => {
    const known = depth.get(name);
    if (known !== undefined) return known;
    if (visiting.has(name)) return 0;
    visiting.add(name);
    let deepest = -1;
    for (const to of dependsOn.get(name) ?? []) deepest = Math.max(deepest, depthOf(to));
    visiting.delete(name);
    depth.set(name, deepest + 1);
    return deepest + 1;
  };
  const byColumn = new Map<number, GraphNode[]>();
  for (const node of [...nodes].sort((a, b) => a.name.localeCompare(b.name))) {
    const column = depthOf(node.name);
    byColumn.set(column, [...(byColumn.get(column) ?? []), node]);
  }
  const placed: PlacedNode[] = [];
  let rows = 0;
  for (const [column, members] of byColumn) {
    members.forEach((node, row) => placed.push({ ...node, column, row }));
    rows = Math.max(rows, members.length);
  }
  return { placed, columns: byColumn.size === 0 ? 0 : Math.max(...byColumn.keys()) + 1, rows };
}
