// A part's history: every revision, newest first, with who made it and when; on each earlier one
// "Diff" (it beside the current config) and "Restore", which makes a new revision equal to it
// (history is never rewritten) and tells the machine at once. `onRestored` lets the page show the
// part's config as it now is.
import { useEffect, useState } from "preact/hooks";
import { appCall, cloudCall } from "./api.js";
import { Problem, useProblem } from "../../web-ui/problem.js";
import { SideBySideDiff } from "./side-by-side-diff.js";

interface HistoryEntry {
  when?: string;
  editedBy?: { value?: string };
  old?: { robotConfig?: Record<string, unknown> };
}

/** A revision's config as the editor shows configs, without the number history adds to it. */
function configText(entry: HistoryEntry | undefined): string {
  const { revision: _number, ...config } = entry?.old?.robotConfig ?? {};
  return JSON.stringify(config, null, 2);
}

export function PartHistory(props: { partId: string; version: number; onRestored: () => void }) {
  const [entries, setEntries] = useState<HistoryEntry[] | undefined>(undefined);
  const [problem, run] = useProblem();
  const [compared, setCompared] = useState("");

  useEffect(() => {
    run(appCall<{ history?: HistoryEntry[] }>("GetRobotPartHistory", { id: props.partId }), (answer) => (setEntries(answer.history ?? []), setCompared("")));
  }, [props.partId, props.version]);

  const restore = (revision: string) => run(cloudCall("RestoreRobotPartRevision", { partId: props.partId, revision }), props.onRestored);

  return (
    <section aria-label="History">
      <h2>History</h2>
      <Problem text={problem} />
      {entries !== undefined && (
        <div class="scroll">
          <table>
            <thead>
              <tr>
                <th>Revision</th>
                <th>When</th>
                <th>Who</th>
                <th />
              </tr>
            </thead>
            <tbody>
              {entries.map((entry, index) => {
                const revision = String(entry.old?.robotConfig?.revision ?? "");
                return (
                  <tr key={revision} data-revision={revision}>
                    <td>{revision}</td>
                    <td>{entry.when ? new Date(entry.when).toLocaleString() : ""}</td>
                    <td>{entry.editedBy?.value ?? ""}</td>
                    <td>
                      {index === 0 ? (
                        "current"
                      ) : (
                        <>
                          <button type="button" aria-pressed={compared === revision} onClick={() => setCompared(compared === revision ? "" : revision)}>
                            Diff {revision}
                          </button>{" "}
                          <button type="button" onClick={() => restore(revision)}>
                            Restore {revision}
                          </button>
                        </>
                      )}
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
      {entries !== undefined && compared !== "" && (
        <SideBySideDiff
          label={`Revision ${compared} against the current config`}
          leftTitle={`Revision ${compared}`}
          rightTitle={`Current (revision ${String(entries[0]?.old?.robotConfig?.revision ?? "")})`}
          left={configText(entries.find((entry) => String(entry.old?.robotConfig?.revision) === compared))}
          right={configText(entries[0])}
        />
      )}
    </section>
  );
}
