// The server's newest logs, live: asked again every second for what came after the last entry
// seen, at the level chosen or above (changing it starts again from the oldest entry kept). The
// newest 500 are shown, newest last, each message as text whatever it contains.
import { useEffect, useState } from "preact/hooks";
import { Problem } from "../../../../web-ui/problem.js";
import type { PageApi } from "./session.js";

interface LogLine {
  seq: number;
  time: number;
  level: string;
  logger: string;
  message: string;
  fields: string;
}

const LEVELS = ["debug", "info", "warn", "error"];
const KEPT = 500;
const ASK_EVERY_MS = 1000;

export function LogsView(props: { api: PageApi }) {
  const [level, setLevel] = useState("info");
  const [lines, setLines] = useState<LogLine[]>([]);
  const [problem, setProblem] = useState("");

  useEffect(() => {
    let live = true;
    let after = 0;
    setLines([]);
    const ask = () =>
      props.api.get<{ next: number; entries: LogLine[] }>(`/page/api/logs?after=${after}&level=${level}`).then(
        (page) => {
          if (!live) return;
          after = page.next;
          setProblem("");
          if (page.entries.length > 0) setLines((before) => [...before, ...page.entries].slice(-KEPT));
        },
        (thrown: Error) => live && setProblem(thrown.message),
      );
    void ask();
    const timer = setInterval(ask, ASK_EVERY_MS);
    return () => {
      live = false;
      clearInterval(timer);
    };
  }, [props.api, level]);

  return (
    <section aria-label="Logs">
      <h2>Logs</h2>
      <label class="inline">
        Level
        <select value={level} onChange={(e) => setLevel(e.currentTarget.value)}>
          {LEVELS.map((l) => (
            <option key={l} value={l}>
              {l} and above
            </option>
          ))}
        </select>
      </label>
      <Problem text={problem} />
      <div class="scroll logs-box">
        <table class="logs" aria-label="Log entries">
          <tbody>
            {lines.map((line) => (
              <tr key={line.seq} class={`level-${line.level}`}>
                <td class="time">{new Date(line.time).toISOString().slice(11, 23)}</td>
                <td class="level">{line.level}</td>
                <td class="logger">{line.logger}</td>
                <td class="message">
                  {line.message} {line.fields && <code>{line.fields}</code>}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}
