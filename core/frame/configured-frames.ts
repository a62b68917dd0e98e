// The frame system a configuration describes: its components' frames, read and placed once per
// list of components (a configuration's list is never changed once parsed). Parsing has already
// refused every frame that cannot be read or placed, with its place (core/config/frames.ts), so
// nothing here is reported; such a frame is simply not in the system.
import { readFrameConfig, type FrameConfig } from "./frame-config.js";
import { placeFrames, type FrameEntry, type FrameSystem } from "./frame-system.js";

export interface FramedResource {
  name: string;
  frame?: FrameConfig;
}

// Made on first use: a firmware that preloads this module keeps what its load made read-only.
let made: WeakMap<readonly FramedResource[], FrameSystem> | undefined;

export function frameSystemOf(components: readonly FramedResource[]): FrameSystem {
  made ??= new WeakMap();
  let system = made.get(components);
  if (system === undefined) {
    const entries: FrameEntry[] = [];
    for (const component of components) {
      const frame = component.frame && readFrameConfig(component.name, component.frame).frame;
      if (frame) entries.push(frame);
    }
    system = placeFrames(entries, (index) => entries[index]!.name).system;
    made.set(components, system);
  }
  return system;
}
