// Call latencies kept as counts in log-spaced buckets (eight per doubling, so about 9 % apart):
// recording is one array increment, memory is fixed, and percentiles are read from the counts.
const bucketsPerDoubling = 8;
// Microsecond buckets up to 2^28 us (about 4.5 minutes); longer calls land in the last one.
const bucketCount = 28 * bucketsPerDoubling + 2;

export interface LatencySummary {
  p50: number;
  p90: number;
  p99: number;
  max: number;
  mean: number;
}

export interface LatencyHistogram {
  record(ms: number): void;
  readonly count: number;
  /** Milliseconds; each percentile is the upper edge of its bucket, so never an underestimate. */
  summary(): LatencySummary;
}

export function createLatencyHistogram(): LatencyHistogram {
  const buckets = new Uint32Array(bucketCount);
  let count = 0;
  let sum = 0;
  let max = 0;

  function upperEdgeMs(index: number): number {
    return index === 0 ? 0.001 : 2 ** ((index - 1) / bucketsPerDoubling) / 1000;
  }

  function percentile(p: number): number {
    const rank = Math.max(1, Math.ceil(count * p));
    let seen = 0;
    for (let i = 0; i < bucketCount; i++) {
      seen += buckets[i]!;
      if (seen >= rank) return Math.min(upperEdgeMs(i), max);
    }
    return max;
  }

  return {
    get count() {
      return count;
    },
    record(ms) {
      const us = ms * 1000;
      const index = us <= 1 ? 0 : Math.min(bucketCount - 1, Math.ceil(Math.log2(us) * bucketsPerDoubling) + 1);
      buckets[index]!++;
      count++;
      sum += ms;
      if (ms > max) max = ms;
    },
    summary() {
      if (count === 0) return { p50: 0, p90: 0, p99: 0, max: 0, mean: 0 };
      return { p50: round(percentile(0.5)), p90: round(percentile(0.9)), p99: round(percentile(0.99)), max: round(max), mean: round(sum / count) };
    },
  };
}

function round(ms: number): number {
  return Math.round(ms * 1000) / 1000;
}
