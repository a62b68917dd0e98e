// A part's logs, newest first: by level (at least the one chosen), by text, and back through
// older pages as far as they are kept (30 days).
import { useEffect, useState } from "preact/hooks";
import { appCall } from "./api.js";
import { Problem } from "./problem.js";

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

/** The levels at least as severe as `least`; none named (every level) for the least of all. */
function levelsFrom(least: string): string[] {
  return least === ALL_LEVELS[0] ? [] : ALL_LEVELS.slice(ALL_LEVELS.indexOf(least));
}

export function PartLogs(props: { partId: string }) {
  const [least, setLeast] = useState("debug");
  const [filter, setFilter] = useState("");
  const [entries, setEntries] = useState<LogEntry[]>([]);
  const [next, setNext] = useState("");
  const [problem, setProblem] = useState("");

  const load = (pageToken: string, kept: LogEntry[]) =>
    appCall<{ logs?: LogEntry[]; nextPageToken?: string }>("GetRobotPartLogs", { id: props.partId, levels: levelsFrom(least), filter, pageToken, limit: 100 }).then(
      (answer) => {
        setEntries([...kept, ...(answer.logs ?? [])]);
        setNext(answer.nextPageToken ?? "");
        setProblem("");
      },
      (thrown: Error) => setProblem(thrown.message),
    );

  useEffect(() => {
    void load("", []);
  }, [props.partId, least, filter]);

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
      </div>
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
      {next !== "" && (
        <button type="button" onClick={() => load(next, entries)}>
          Older
        </button>
      )}
    </section>
  );
}
