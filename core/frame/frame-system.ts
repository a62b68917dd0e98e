// The frame system: every frame placed in a tree whose root is "world", each by its pose in its
// parent. Placing frames finds what keeps one out of the tree (a name used twice or taken by the
// world, an unknown parent, a cycle, a parent that is itself out) as a problem per frame, so a
// configuration names each with its place; the frames placed are listed as Viam lists them:
// parents before children, breadth first from the world, siblings by name.
import { composePoses, IDENTITY_POSE, invertPose, type Pose } from "./pose.js";

export const WORLD = "world";

export type Shape = { kind: "box"; x: number; y: number; z: number } | { kind: "sphere"; r: number } | { kind: "capsule"; r: number; l: number };

export interface FrameGeometry {
  shape: Shape;
  /** The geometry's centre in its frame. */
  center: Pose;
  label: string;
}

export interface FrameEntry {
  name: string;
  parent: string;
  /** The frame's pose in its parent. */
  pose: Pose;
  geometry?: FrameGeometry;
}

/** Why the frame at `index` is left out; `at` says which of its values is wrong. */
export interface FrameProblem {
  index: number;
  at: "name" | "parent";
  message: string;
}

export interface FrameSystem {
  /** Every frame but the world, parents before children. */
  readonly frames: readonly FrameEntry[];
  /** Whether `name` is a frame here ("world" always is). */
  has(name: string): boolean;
  /** `pose`, observed in frame `from`, seen from frame `to`; both must be frames here. */
  transform(pose: Pose, from: string, to: string): Pose;
}

/**
 * Places `entries` in a tree, on top of the frames of `base` when given. `describe(index)` names
 * an entry in messages (`components[2]`).
 */
export function placeFrames(
  entries: readonly FrameEntry[],
  describe: (index: number) => string,
  base?: FrameSystem,
): { system: FrameSystem; problems: FrameProblem[] } {
  const problems: FrameProblem[] = [];
  const known = new Map<string, number>();
  const children = new Map<string, number[]>();
  entries.forEach((entry, index) => {
    const taken = nameTaken(entry.name, known, describe, base);
    if (taken !== undefined) {
      problems.push({ index, at: "name", message: taken });
      return;
    }
    known.set(entry.name, index);
    const siblings = children.get(entry.parent) ?? [];
    siblings.push(index);
    children.set(entry.parent, siblings);
  });

  const inWorld = new Map<string, Pose>();
  const order: number[] = [];
  const roots = [WORLD, ...(base?.frames.map((f) => f.name) ?? [])];
  const queue = roots.filter((name) => children.has(name));
  for (let next = 0; next < queue.length; next++) {
    const parent = queue[next]!;
    const from = inWorld.get(parent) ?? (parent === WORLD ? IDENTITY_POSE : base!.transform(IDENTITY_POSE, parent, WORLD));
    const placed = (children.get(parent) ?? []).slice().sort((a, b) => compareNames(entries[a]!.name, entries[b]!.name));
    for (const index of placed) {
      const entry = entries[index]!;
      inWorld.set(entry.name, composePoses(from, entry.pose));
      order.push(index);
      queue.push(entry.name);
    }
  }
  const out = [...known.values()].filter((index) => !inWorld.has(entries[index]!.name));
  problems.push(...whyOut(out, entries, known, describe));
  problems.sort((a, b) => a.index - b.index);
  return { system: frameSystemOf(order.map((i) => entries[i]!), inWorld, base), problems };
}

function nameTaken(name: string, known: Map<string, number>, describe: (i: number) => string, base?: FrameSystem): string | undefined {
  if (name === WORLD) return `"${WORLD}" is the root of the frame system: no frame may take that name`;
  if (base?.has(name)) return `names the frame "${name}", which the machine's frame system already has`;
  const holder = known.get(name);
  return holder === undefined ? undefined : `names the frame "${name}", which ${describe(holder)} already names`;
}

// Why each frame that is not in the tree is out: on a cycle, its parent unknown, or its parent
// out for one of those reasons further up. Each frame has one parent, so one walk up from each,
// never past a frame already walked, finds every cycle: linear in the number of frames.
function whyOut(out: number[], entries: readonly FrameEntry[], known: Map<string, number>, describe: (i: number) => string): FrameProblem[] {
  const cycleOf = new Map<number, { cycle: number[]; at: number }>();
  const walked = new Set<number>();
  for (const start of out) {
    const path: number[] = [];
    const onPath = new Map<number, number>();
    for (let at: number | undefined = start; at !== undefined && !walked.has(at); at = known.get(entries[at]!.parent)) {
      walked.add(at);
      onPath.set(at, path.length);
      path.push(at);
      const next = known.get(entries[at]!.parent);
      const loop = next === undefined ? undefined : onPath.get(next);
      if (loop !== undefined) {
        const cycle = path.slice(loop);
        cycle.forEach((member, at) => cycleOf.set(member, { cycle, at }));
        break;
      }
    }
  }
  return out.map((index): FrameProblem => {
    const cycle = cycleOf.get(index);
    if (cycle) return { index, at: "parent", message: `frames form a cycle: ${cycleText(cycle.cycle, cycle.at, entries)}` };
    const parent = entries[index]!.parent;
    const parentIndex = known.get(parent);
    if (parentIndex === undefined) return { index, at: "parent", message: `unknown frame "${parent}"` };
    return { index, at: "parent", message: `frame "${parent}" is not connected to the world (see ${describe(parentIndex)})` };
  });
}

/** `b -> c -> a -> b` for the cycle a, b, c seen from b (at 1); a long cycle is shortened. */
function cycleText(cycle: number[], from: number, entries: readonly FrameEntry[]): string {
  const name = (step: number) => entries[cycle[(from + step) % cycle.length]!]!.name;
  const shown = cycle.length <= 8 ? cycle.map((_, step) => name(step)) : [0, 1, 2, 3].map(name).concat(`... (${cycle.length} frames)`);
  return [...shown, name(0)].join(" -> ");
}

function frameSystemOf(frames: FrameEntry[], inWorld: Map<string, Pose>, base: FrameSystem | undefined): FrameSystem {
  const worldPose = (name: string): Pose => inWorld.get(name) ?? (name === WORLD ? IDENTITY_POSE : base!.transform(IDENTITY_POSE, name, WORLD));
  return {
    frames: [...(base?.frames ?? []), ...frames],
    has: (name) => name === WORLD || inWorld.has(name) || base?.has(name) === true,
    transform: (pose, from, to) => composePoses(invertPose(worldPose(to)), composePoses(worldPose(from), pose)),
  };
}

// Go's string order (bytes), which Viam sorts siblings by; the same as UTF-16 order for the
// names a configuration allows.
function compareNames(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
