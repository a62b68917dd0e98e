// What the recorder samples: a part of the metrics, read once a second, cheaply.
import type { MetricTree } from "../../../../core/index.js";

export interface FtdcSource {
  /** The metrics now, nested; the recorder flattens them with dots. */
  sample(): MetricTree;
  /** Releases what the source holds (a monitor, a subscription). */
  close?(): void;
}
