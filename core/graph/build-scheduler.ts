// Runs the builds of a plan: lowest level first, at most `cap` at once, and each resource as soon
// as every dependency of it that is in the same plan has settled. Levels give the order; they are
// not barriers, so a slow or hung build holds back only what depends on it.
import type { DependencyGraph } from "./dependency-graph.js";

export function runByDependencies(
  graph: DependencyGraph,
  members: readonly number[],
  cap: number,
  task: (index: number) => Promise<void>,
  stopped: () => boolean,
): Promise<void> {
  // Dependencies of each member still to settle; only members take part.
  const pending = new Map<number, number>();
  for (const i of members) pending.set(i, 0);
  for (const i of members) {
    for (let j = graph.edgeStart[i]!; j < graph.edgeStart[i + 1]!; j++) {
      const t = graph.edgeTo[j]!;
      if (t !== i && pending.has(t)) pending.set(i, pending.get(i)! + 1);
    }
  }
  // One queue per level (with a read position, so taking is O(1)); `lowest` is the first non-empty.
  const ready: number[][] = [];
  const head: number[] = [];
  let lowest = 0;
  const push = (i: number) => {
    const lv = Math.max(0, graph.level[i]!);
    while (ready.length <= lv) {
      ready.push([]);
      head.push(0);
    }
    ready[lv]!.push(i);
    if (lv < lowest) lowest = lv;
  };
  const take = (): number | undefined => {
    while (lowest < ready.length && head[lowest]! === ready[lowest]!.length) lowest++;
    return lowest < ready.length ? ready[lowest]![head[lowest]!++] : undefined;
  };
  for (const i of members) if (pending.get(i) === 0) push(i);

  let inFlight = 0;
  let left = members.length;
  return new Promise((resolve) => {
    if (left === 0) return resolve();
    const settle = (i: number) => {
      inFlight--;
      left--;
      for (let k = graph.dependentStart[i]!; k < graph.dependentStart[i + 1]!; k++) {
        const d = graph.dependentFrom[k]!;
        const count = pending.get(d);
        if (count === undefined || d === i) continue;
        pending.set(d, count - 1);
        if (count === 1) push(d);
      }
      start();
    };
    const start = () => {
      let exhausted = false;
      while (inFlight < cap && !stopped()) {
        const i = take();
        if (i === undefined) {
          exhausted = true;
          break;
        }
        inFlight++;
        task(i).then(
          () => settle(i),
          () => settle(i),
        );
      }
      // Done when everything settled, or when nothing runs and nothing more can start.
      if (left === 0 || (inFlight === 0 && (exhausted || stopped()))) resolve();
    };
    start();
  });
}
