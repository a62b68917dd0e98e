// Two configs side by side, their differences marked and long unchanged stretches folded to a
// line that says how many lines it hides (three lines of context kept around each change). Every
// line is shown as text.
import { lineDiff, type DiffRow } from "./line-diff.js";

const CONTEXT = 3;

type Shown = DiffRow | { kind: "folded"; count: number };

function folded(rows: DiffRow[]): Shown[] {
  const near = rows.map(() => false);
  rows.forEach((row, index) => {
    if (row.kind === "same") return;
    for (let k = Math.max(0, index - CONTEXT); k <= Math.min(rows.length - 1, index + CONTEXT); k++) near[k] = true;
  });
  const shown: Shown[] = [];
  let hidden = 0;
  rows.forEach((row, index) => {
    if (near[index]) {
      if (hidden > 0) shown.push({ kind: "folded", count: hidden });
      hidden = 0;
      shown.push(row);
    } else {
      hidden++;
    }
  });
  if (hidden > 0) shown.push({ kind: "folded", count: hidden });
  return shown;
}

export function SideBySideDiff(props: { label: string; leftTitle: string; rightTitle: string; left: string; right: string }) {
  const rows = lineDiff(props.left, props.right);
  const changes = rows.filter((row) => row.kind !== "same").length;
  return (
    <figure class="diff" aria-label={props.label}>
      <figcaption>{changes === 0 ? "No differences." : `${changes} line${changes === 1 ? "" : "s"} differ.`}</figcaption>
      <div class="scroll">
        <table>
          <thead>
            <tr>
              <th colSpan={2}>{props.leftTitle}</th>
              <th colSpan={2}>{props.rightTitle}</th>
            </tr>
          </thead>
          <tbody>
            {folded(rows).map((row, index) =>
              row.kind === "folded" ? (
                <tr key={index} class="folded">
                  <td colSpan={4}>… {row.count} unchanged lines</td>
                </tr>
              ) : (
                <tr key={index} class={row.kind}>
                  <td class="line">{row.left?.line}</td>
                  <td class="text left">{row.left?.text}</td>
                  <td class="line">{row.right?.line}</td>
                  <td class="text right">{row.right?.text}</td>
                </tr>
              ),
            )}
          </tbody>
        </table>
      </div>
    </figure>
  );
}
