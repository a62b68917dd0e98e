// Strongly connected components (Tarjan, iterative so a chain of thousands does not exhaust the
// stack) and one concrete cycle through a component, for the error message. Edges point from a
// resource to what it depends on, so components come out dependencies-first: a topological order.
// The graph is given as flat arrays: node i's edges are `edgeTo[edgeStart[i] .. edgeStart[i + 1])`.

export interface Components {
  /** Every node, dependencies before dependents; members of one component are adjacent. */
  order: Int32Array;
  /** Component id of each node. */
  component: Int32Array;
  /** Size of each component, by id. */
  size: number[];
}

export function stronglyConnected(edgeStart: Int32Array, edgeTo: Int32Array): Components {
  const n = edgeStart.length - 1;
  const index = new Int32Array(n).fill(-1);
  const low = new Int32Array(n);
  const next = new Int32Array(n);
  const onStack = new Uint8Array(n);
  const component = new Int32Array(n);
  const order = new Int32Array(n);
  const size: number[] = [];
  const stack = new Int32Array(n);
  const calls = new Int32Array(n);
  let stackTop = 0;
  let callTop = 0;
  let counter = 0;
  let emitted = 0;
  for (let s = 0; s < n; s++) {
    if (index[s] !== -1) continue;
    index[s] = low[s] = counter++;
    next[s] = edgeStart[s]!;
    stack[stackTop++] = s;
    onStack[s] = 1;
    calls[callTop++] = s;
    while (callTop > 0) {
      const v = calls[callTop - 1]!;
      const i = next[v]!;
      if (i < edgeStart[v + 1]!) {
        next[v] = i + 1;
        const w = edgeTo[i]!;
        if (index[w] === -1) {
          index[w] = low[w] = counter++;
          next[w] = edgeStart[w]!;
          stack[stackTop++] = w;
          onStack[w] = 1;
          calls[callTop++] = w;
        } else if (onStack[w] && index[w]! < low[v]!) {
          low[v] = index[w]!;
        }
        continue;
      }
      callTop--;
      if (low[v] === index[v]) {
        const id = size.length;
        let count = 0;
        for (;;) {
          const w = stack[--stackTop]!;
          onStack[w] = 0;
          component[w] = id;
          order[emitted++] = w;
          count++;
          if (w === v) break;
        }
        size.push(count);
      }
      if (callTop > 0) {
        const u = calls[callTop - 1]!;
        if (low[v]! < low[u]!) low[u] = low[v]!;
      }
    }
  }
  return { order, component, size };
}

/**
 * A shortest cycle from `start` back to itself through members of its component, as node
 * indexes ending with `start` again. `parent` is scratch space of the graph's size, filled with -1.
 */
export function cycleThrough(start: number, edgeStart: Int32Array, edgeTo: Int32Array, component: Int32Array, parent: Int32Array): number[] {
  const id = component[start]!;
  const queue: number[] = [start];
  const touched: number[] = [];
  let last = -1;
  for (let head = 0; head < queue.length && last < 0; head++) {
    const v = queue[head]!;
    for (let j = edgeStart[v]!; j < edgeStart[v + 1]!; j++) {
      const w = edgeTo[j]!;
      if (component[w] !== id) continue;
      if (w === start) {
        last = v;
        break;
      }
      if (parent[w] !== -1) continue;
      parent[w] = v;
      touched.push(w);
      queue.push(w);
    }
  }
  const path: number[] = [start];
  for (let v = last; v !== start && v >= 0; v = parent[v]!) path.push(v);
  // The walk above went from the end of the cycle back to its start; put it in edge order.
  path.reverse();
  path.unshift(start);
  for (const w of touched) parent[w] = -1;
  return path;
}
