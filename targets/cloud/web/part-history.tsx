// A part's history: every revision, newest first, with who made it and when, and "Restore" on
// each earlier one, which makes a new revision equal to it (history is never rewritten) and tells
// the machine at once. `onRestored` lets the page show the part's config as it now is.
import { useEffect, useState } from "preact/hooks";
import { appCall, cloudCall } from "./api.js";
import { Problem, useProblem } from "./problem.js";

interface HistoryEntry {
  when?: string;
  editedBy?: { value?: string };
  old?: { robotConfig?: { revision?: string } };
}

export function PartHistory(props: { partId: string; version: number; onRestored: () => void }) {
  const [entries, setEntries] = useState<HistoryEntry[] | undefined>(undefined);
  const [problem, run] = useProblem();

  useEffect(() => {
    run(appCall<{ history?: HistoryEntry[] }>("GetRobotPartHistory", { id: props.partId }), (answer) => setEntries(answer.history ?? []));
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
                const revision = entry.old?.robotConfig?.revision ?? "";
                return (
                  <tr key={revision} data-revision={revision}>
                    <td>{revision}</td>
                    <td>{entry.when ? new Date(entry.when).toLocaleString() : ""}</td>
                    <td>{entry.editedBy?.value ?? ""}</td>
                    <td>
                      {index === 0 ? (
                        "current"
                      ) : (
                        <button type="button" onClick={() => restore(revision)}>
                          Restore {revision}
                        </button>
                      )}
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
