// The Diagnostics section: the last hour of the server's FTDC readings as charts, asked again
// every five seconds. The main figures (CPU, memory, event loop, API calls and errors, resources
// by state) are always charted; any other metric recorded can be picked from a list, narrowed by a
// filter. When the server does not record (-ftdc=false) it says so and how to turn it on.
import { useEffect, useState } from "preact/hooks";
import type { FtdcSeries } from "../../../../../core/ftdc/index.js";
import { Problem } from "../../../../web-ui/problem.js";
import { usePolled } from "../../../../web-ui/use-polled.js";
import { DiagnosticsChart } from "./diagnostics-chart.js";
import { CHARTED, MAIN_FIGURES, STATE_FIGURES, stateShown, type Figure } from "./diagnostics-figures.js";
import type { PageApi } from "./session.js";

interface Diagnostics {
  recording: boolean;
  names: string[];
  series: FtdcSeries[];
}

const ASK_EVERY_MS = 5000;
const NARROW_PX = 640;

export function DiagnosticsView(props: { api: PageApi }) {
  const [picked, setPicked] = useState("");
  const [filter, setFilter] = useState("");
  const narrow = useNarrow();
  const asked = [...CHARTED, ...(picked ? [picked] : [])];
  const query = asked.map((name) => `metric=${encodeURIComponent(name)}`).join("&");
  const polled = usePolled(() => props.api.get<Diagnostics>(`/page/api/diagnostics?${query}`), ASK_EVERY_MS, [props.api, query]);
  const answer = polled.answer;
  const byName = new Map((answer?.series ?? []).map((s) => [s.name, s]));
  const shown: Figure[] = [...MAIN_FIGURES, ...STATE_FIGURES.filter((f) => stateShown(f, byName.get(f.metric)?.values ?? []))];
  const others = (answer?.names ?? []).filter((name) => !CHARTED.has(name) && (name === picked || name.toLowerCase().includes(filter.trim().toLowerCase())));
  return (
    <section aria-label="Diagnostics" class="diagnostics">
      <h2>Diagnostics</h2>
      <Problem text={polled.problem} />
      {answer && !answer.recording && (
        <p class="off">
          This server does not record diagnostics: it was started with <code>-ftdc=false</code>. Start it without that flag (recording is on by default) to see
          the last hour charted here.
        </p>
      )}
      {answer?.recording && answer.names.length === 0 && <p>No readings yet: the first comes within a second.</p>}
      {answer?.recording && answer.names.length > 0 && (
        <>
          <p>The last hour, once a second, refreshed every five seconds. Times are UTC.</p>
          <div class="charts">
            {shown.map((figure) => {
              const series = byName.get(figure.metric);
              return series && <DiagnosticsChart key={figure.metric} series={series} label={figure.label} narrow={narrow} />;
            })}
          </div>
          <div class="metric-picker">
            <label>
              Filter metrics
              <input type="search" value={filter} placeholder="e.g. latency" onInput={(e) => setFilter(e.currentTarget.value)} />
            </label>
            <label>
              Metric to chart
              <select value={picked} onChange={(e) => setPicked(e.currentTarget.value)}>
                <option value="">choose a metric to chart ({others.length})</option>
                {others.map((name) => (
                  <option key={name} value={name}>
                    {name}
                  </option>
                ))}
              </select>
            </label>
          </div>
          {picked && byName.get(picked) && (
            <div class="charts">
              <DiagnosticsChart series={byName.get(picked)!} label={picked} narrow={narrow} />
            </div>
          )}
        </>
      )}
    </section>
  );
}

/** Whether the window is as narrow as a phone's, followed as it changes. */
function useNarrow(): boolean {
  const [narrow, setNarrow] = useState(() => window.innerWidth < NARROW_PX);
  useEffect(() => {
    const resized = () => setNarrow(window.innerWidth < NARROW_PX);
    window.addEventListener("resize", resized);
    return () => window.removeEventListener("resize", resized);
  }, []);
  return narrow;
}
