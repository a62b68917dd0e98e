// A part's log volume over a time range as stacked bars, one per span, coloured by level (the most
// severe on top), where a person would rather look than read: each bar says its counts when
// pointed at, and a click narrows the logs to that span. The bars are one stop of the keyboard's
// Tab (arrow keys, Home and End move between them, Enter or Space narrows), each named by its
// span and counts; the same counts are in a table for screen readers.
import { useEffect, useRef, useState } from "preact/hooks";

export interface VolumeBucket {
  start: string;
  counts: number[];
}

export interface Volume {
  levels: string[];
  buckets: VolumeBucket[];
}

const COLOURS: Record<string, string> = { debug: "#9ca3af", info: "#60a5fa", warn: "#f59e0b", error: "#dc2626", dpanic: "#7f1d1d", panic: "#7f1d1d", fatal: "#450a0a" };
const WIDTH = 600;
const HEIGHT = 120;

const timeOf = (iso: string) => new Date(iso).toLocaleString();

/** Where a key moves the focus among `count` bars from `at`, or undefined for a key that does not move it. */
function movedTo(key: string, at: number, count: number): number | undefined {
  if (key === "ArrowLeft" || key === "ArrowDown") return Math.max(0, at - 1);
  if (key === "ArrowRight" || key === "ArrowUp") return Math.min(count - 1, at + 1);
  if (key === "Home") return 0;
  if (key === "End") return count - 1;
  return undefined;
}

export function LogVolumeChart(props: { volume: Volume; endMs: number; onPick: (startMs: number, endMs: number) => void }) {
  const { levels, buckets } = props.volume;
  const totals = buckets.map((b) => b.counts.reduce((sum, n) => sum + Number(n), 0));
  const highest = Math.max(1, ...totals);
  const all = totals.reduce((sum, n) => sum + n, 0);
  const barWidth = WIDTH / Math.max(1, buckets.length);
  const endOf = (index: number) => (index + 1 < buckets.length ? Date.parse(buckets[index + 1]!.start) : props.endMs);
  const first = buckets[0];
  const summary = first ? `${all} ${all === 1 ? "entry" : "entries"} from ${timeOf(first.start)} to ${new Date(props.endMs).toLocaleString()}` : "no entries";
  // The bar the keyboard is on (the newest until it moves): the only one Tab stops at.
  const [chosen, setChosen] = useState<number | undefined>(undefined);
  const current = Math.min(chosen ?? buckets.length - 1, buckets.length - 1);
  const pick = (index: number) => props.onPick(Date.parse(buckets[index]!.start), endOf(index));
  // A span picked from the keyboard redraws the chart over it: the focus goes to the new chart's
  // newest bar instead of being lost with the old bars.
  const svg = useRef<SVGSVGElement>(null);
  const refocus = useRef(false);
  useEffect(() => {
    if (!refocus.current) return;
    refocus.current = false;
    setChosen(undefined);
    (svg.current?.lastElementChild as SVGGElement | null)?.focus();
  }, [props.volume]);
  const onKeyDown = (event: KeyboardEvent, index: number) => {
    if (event.key === "Enter" || event.key === " ") {
      event.preventDefault();
      refocus.current = true;
      pick(index);
      return;
    }
    const next = movedTo(event.key, index, buckets.length);
    if (next === undefined) return;
    event.preventDefault();
    setChosen(next);
    ((event.currentTarget as Element).parentElement?.children[next] as SVGGElement | undefined)?.focus();
  };

  return (
    <figure class="volume" aria-label="Log volume">
      <svg ref={svg} viewBox={`0 0 ${WIDTH} ${HEIGHT}`} preserveAspectRatio="none" role="group" aria-label={`Log volume: ${summary}`}>
        {buckets.map((bucket, index) => {
          let y = HEIGHT;
          const says = `${timeOf(bucket.start)}: ${levels.map((level, l) => `${Number(bucket.counts[l] ?? 0)} ${level}`).filter((text) => !text.startsWith("0 ")).join(", ") || "none"}`;
          return (
            <g
              key={bucket.start}
              class="bar"
              role="button"
              // Lower case: on an SVG element the attribute name is taken as written.
              tabindex={index === current ? 0 : -1}
              aria-label={`Show ${says}`}
              onClick={() => pick(index)}
              onKeyDown={(event) => onKeyDown(event, index)}
            >
              <title>{says}</title>
              <rect x={index * barWidth} y={0} width={barWidth} height={HEIGHT} fill="transparent" />
              {levels.map((level, l) => {
                const height = (Number(bucket.counts[l] ?? 0) / highest) * HEIGHT;
                y -= height;
                return height > 0 ? <rect key={level} x={index * barWidth + 0.5} y={y} width={Math.max(1, barWidth - 1)} height={height} fill={COLOURS[level] ?? "#6b7280"} /> : null;
              })}
            </g>
          );
        })}
      </svg>
      <figcaption>
        {summary}.{" "}
        {levels.slice(0, 4).map((level) => (
          <span key={level} class="legend">
            <i class={`swatch level-${level}`} /> {level}
          </span>
        ))}
      </figcaption>
      <div class="visually-hidden">
      <table>
        <caption>Log entries by level and time</caption>
        <thead>
          <tr>
            <th>Span starting</th>
            {levels.map((level) => (
              <th key={level}>{level}</th>
            ))}
          </tr>
        </thead>
        <tbody>
          {buckets.map((bucket) => (
            <tr key={bucket.start}>
              <td>{timeOf(bucket.start)}</td>
              {levels.map((level, l) => (
                <td key={level}>{Number(bucket.counts[l] ?? 0)}</td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
      </div>
    </figure>
  );
}
