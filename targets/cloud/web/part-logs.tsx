// A part's logs, newest first: by level (at least the one chosen), by text and by time range, back
// through older pages as far as they are kept (30 days); a chart of how much it logged by level
// over the range (the last day when none is chosen; a bar's click narrows to its span); and "Live",
// which adds new entries at the top as the machine sends them.
import { useEffect, useState } from "preact/hooks";
import { appCall, cloudCall, serverStream } from "./api.js";
import { LogVolumeChart, type Volume } from "./log-volume-chart.js";
import { Problem } from "../../web-ui/problem.js";

interface LogEntry {
  time?: string;
  level?: string;
  loggerName?: string;
  message?: string;
}

// The levels a machine logs at, least severe first (svc-cloud's LOG_LEVELS); the choice offers
// the first four, each with everything more severe.
const ALL_LEVELS = ["debug", "info", "warn", "error", "dpanic", "panic", "fatal"];
const LEVELS = ALL_LEVELS.slice(0, 4);
const DAY_MS = 24 * 60 * 60_000;
/** Spans the chart draws. */
const BUCKETS = 48;
/** Entries the live tail keeps on the page, newest first. */
const LIVE_KEPT = 1000;

/** The levels at least as severe as `least`; none named (every level) for the least of all. */
function levelsFrom(least: string): string[] {
  return least === ALL_LEVELS[0] ? [] : ALL_LEVELS.slice(ALL_LEVELS.indexOf(least));
}

interface Range {
  startMs?: number;
  endMs?: number;
}

/** A datetime-local input's value (local time, to the minute) for `ms`, or "" for none. */
function localInput(ms: number | undefined): string {
  if (ms === undefined) return "";
  const at = new Date(ms - new Date(ms).getTimezoneOffset() * 60_000);
  return at.toISOString().slice(0, 16);
}

const msOfInput = (value: string) => (value === "" ? undefined : new Date(value).getTime());
const iso = (ms: number | undefined) => (ms === undefined ? undefined : new Date(ms).toISOString());

export function PartLogs(props: { partId: string }) {
  const [least, setLeast] = useState("debug");
  const [filter, setFilter] = useState("");
  const [range, setRange] = useState<Range>({});
  const [entries, setEntries] = useState<LogEntry[]>([]);
  const [next, setNext] = useState("");
  const [problem, setProblem] = useState("");
  const [live, setLive] = useState(false);
  const [volume, setVolume] = useState<{ volume: Volume; endMs: number } | undefined>(undefined);

  const load = (pageToken: string, kept: LogEntry[]) =>
    appCall<{ logs?: LogEntry[]; nextPageToken?: string }>("GetRobotPartLogs", {
      id: props.partId,
      levels: levelsFrom(least),
      filter,
      pageToken,
      limit: 100,
      start: iso(range.startMs),
      end: iso(range.endMs),
    }).then(
      (answer) => {
        setEntries([...kept, ...(answer.logs ?? [])]);
        setNext(answer.nextPageToken ?? "");
        setProblem("");
      },
      (thrown: Error) => setProblem(thrown.message),
    );

  useEffect(() => {
    void load("", []);
    // With no range chosen, svc-cloud's own clock says when the last day ends.
    const endMs = range.endMs ?? (range.startMs === undefined ? undefined : Date.now());
    const startMs = range.startMs ?? (endMs === undefined ? undefined : endMs - DAY_MS);
    if (startMs !== undefined && endMs !== undefined && startMs >= endMs) return;
    cloudCall<Volume>("GetLogVolume", { partId: props.partId, start: iso(startMs), end: iso(endMs), buckets: BUCKETS }).then(
      (answer) => {
        const buckets = answer.buckets ?? [];
        const width = buckets.length > 1 ? Date.parse(buckets[1]!.start) - Date.parse(buckets[0]!.start) : 0;
        setVolume({ volume: { levels: answer.levels ?? [], buckets }, endMs: endMs ?? Date.parse(buckets.at(-1)?.start ?? "") + width });
      },
      (thrown: Error) => setProblem(thrown.message),
    );
  }, [props.partId, least, filter, range]);

  // Live: new entries as the machine sends them, those at the chosen level or above.
  useEffect(() => {
    if (!live) return;
    const stop = new AbortController();
    const wanted = new Set(levelsFrom(least));
    const arrived = (answer: { logs?: LogEntry[] }) => {
      const shown = (answer.logs ?? []).filter((entry) => wanted.size === 0 || wanted.has(entry.level ?? ""));
      if (shown.length > 0) setEntries((now) => [...shown.reverse(), ...now].slice(0, LIVE_KEPT));
    };
    serverStream("viam.app.v1.AppService", "TailRobotPartLogs", { id: props.partId, filter }, arrived, stop.signal).then(
      () => setLive(false),
      (thrown: Error) => {
        if (stop.signal.aborted) return;
        setProblem(`The live tail stopped: ${thrown.message}`);
        setLive(false);
      },
    );
    return () => stop.abort();
  }, [live, props.partId, least, filter]);

  return (
    <section aria-label="Logs">
      <h2>Logs</h2>
      <div class="controls">
        <label>
          Level
          <select aria-label="Level" value={least} onChange={(e) => setLeast((e.currentTarget as HTMLSelectElement).value)}>
            {LEVELS.map((level) => (
              <option value={level}>{level === "debug" ? "all" : `${level} and above`}</option>
            ))}
          </select>
        </label>
        <form
          onSubmit={(e) => {
            e.preventDefault();
            setFilter(String(new FormData(e.currentTarget as HTMLFormElement).get("filter") ?? ""));
          }}
        >
          <input name="filter" type="search" placeholder="Filter logs (Enter)" aria-label="Filter logs" />
        </form>
        <label>
          From
          <input type="datetime-local" value={localInput(range.startMs)} onChange={(e) => setRange({ ...range, startMs: msOfInput((e.currentTarget as HTMLInputElement).value) })} />
        </label>
        <label>
          To
          <input type="datetime-local" value={localInput(range.endMs)} onChange={(e) => setRange({ ...range, endMs: msOfInput((e.currentTarget as HTMLInputElement).value) })} />
        </label>
        {(range.startMs !== undefined || range.endMs !== undefined) && (
          <button type="button" onClick={() => setRange({})}>
            Any time
          </button>
        )}
        <button type="button" aria-pressed={live} disabled={range.endMs !== undefined} onClick={() => setLive(!live)}>
          {live ? "Stop live" : "Live"}
        </button>
      </div>
      {volume && <LogVolumeChart volume={volume.volume} endMs={volume.endMs} onPick={(startMs, endMs) => (setLive(false), setRange({ startMs, endMs }))} />}
      <Problem text={problem} />
      <div class="scroll">
        <table class="logs">
          <tbody>
            {entries.map((entry, index) => (
              <tr key={index} class={`level-${entry.level ?? ""}`}>
                <td>{entry.time ? new Date(entry.time).toLocaleString() : ""}</td>
                <td>{entry.level}</td>
                <td>{entry.loggerName}</td>
                <td>{entry.message}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {entries.length === 0 && <p>No logs.</p>}
      {next !== "" && !live && (
        <button type="button" onClick={() => load(next, entries)}>
          Older
        </button>
      )}
    </section>
  );
}
