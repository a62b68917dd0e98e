// Components' frames: each read on its own (its orientation and geometry), then all placed in one
// tree rooted at the world (names used once, parents known, no cycle). A component whose frame
// cannot be read or placed is left out with its issue, as an entry with any other bad value is.
// Only components have a place in the frame system (as in Viam): a service's frame is ignored,
// with a warning.
import { placeFrames, readFrameConfig, type FrameConfig, type FrameEntry } from "../frame/index.js";
import type { ResourceConfig } from "./types.js";
import type { IssueList } from "./issue-list.js";
import { formatPath, type Segment } from "./data-path.js";

/** A component whose frame was read, and where its entry is (`["components", 2]`). */
export interface FramedComponent {
  resource: ResourceConfig;
  path: Segment[];
  frame: FrameEntry;
}

/** The frame an entry describes; null when it is unusable (its issues said), undefined when it has none. */
export function readEntryFrame(kind: "component" | "service", name: string, config: FrameConfig | undefined, path: Segment[], issues: IssueList): FrameEntry | null | undefined {
  if (config === undefined) return undefined;
  if (kind === "service") {
    issues.warning([...path, "frame"], "is ignored: only components have a place in the frame system");
    return undefined;
  }
  const { frame, problems } = readFrameConfig(name, config);
  for (const problem of problems) {
    const at = [...path, "frame", ...problem.path];
    if (problem.severity === "error") issues.error(at, problem.message);
    else issues.warning(at, problem.message);
  }
  return frame ?? null;
}

/** The components whose frames cannot be placed in the tree, each with its issue. */
export function unplacedFrames(framed: readonly FramedComponent[], issues: IssueList): Set<ResourceConfig> {
  const { problems } = placeFrames(
    framed.map((f) => f.frame),
    (index) => formatPath(framed[index]!.path),
  );
  const unplaced = new Set<ResourceConfig>();
  for (const problem of problems) {
    const { path, resource } = framed[problem.index]!;
    issues.error(problem.at === "name" ? [...path, "frame"] : [...path, "frame", "parent"], problem.message);
    unplaced.add(resource);
  }
  return unplaced;
}
