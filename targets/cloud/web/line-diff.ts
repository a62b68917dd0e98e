// Two texts side by side, line against line: what both have, what only the left has, what only
// the right has, and lines changed in place (a removed line beside the added one that took its
// place). The longest common subsequence of the lines that differ, after the common start and end
// are set aside; past MAX_CELLS of work the differing middle is shown removed and added whole
// rather than stall the page.

export interface DiffRow {
  kind: "same" | "changed" | "removed" | "added";
  /** 1-based line numbers and texts on each side; absent where that side has no line. */
  left?: { line: number; text: string };
  right?: { line: number; text: string };
}

const MAX_CELLS = 4_000_000;

type Step = "same" | "removed" | "added";

export function lineDiff(leftText: string, rightText: string): DiffRow[] {
  const left = leftText.split("\n");
  const right = rightText.split("\n");
  let start = 0;
  while (start < left.length && start < right.length && left[start] === right[start]) start++;
  let end = 0;
  while (end < left.length - start && end < right.length - start && left[left.length - 1 - end] === right[right.length - 1 - end]) end++;
  const steps: Step[] = [
    ...Array<Step>(start).fill("same"),
    ...middleSteps(left.slice(start, left.length - end), right.slice(start, right.length - end)),
    ...Array<Step>(end).fill("same"),
  ];
  return rowsOf(steps, left, right);
}

function middleSteps(left: string[], right: string[]): Step[] {
  const n = left.length;
  const m = right.length;
  if (n * m > MAX_CELLS) return [...Array<Step>(n).fill("removed"), ...Array<Step>(m).fill("added")];
  // lengths[i][j]: the longest common subsequence of left[i..] and right[j..].
  const width = m + 1;
  const lengths = new Uint32Array((n + 1) * width);
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      lengths[i * width + j] = left[i] === right[j] ? lengths[(i + 1) * width + j + 1]! + 1 : Math.max(lengths[(i + 1) * width + j]!, lengths[i * width + j + 1]!);
    }
  }
  const steps: Step[] = [];
  let i = 0;
  let j = 0;
  while (i < n || j < m) {
    if (i < n && j < m && left[i] === right[j]) {
      steps.push("same");
      i++;
      j++;
    } else if (j >= m || (i < n && lengths[(i + 1) * width + j]! >= lengths[i * width + j + 1]!)) {
      steps.push("removed");
      i++;
    } else {
      steps.push("added");
      j++;
    }
  }
  return steps;
}

// Removed lines followed by added ones pair up as changed rows, line by line.
function rowsOf(steps: Step[], left: string[], right: string[]): DiffRow[] {
  const rows: DiffRow[] = [];
  let i = 0;
  let j = 0;
  let removed: number[] = [];
  let added: number[] = [];
  const flush = () => {
    for (let k = 0; k < Math.max(removed.length, added.length); k++) {
      const l = removed[k];
      const r = added[k];
      rows.push({
        kind: l !== undefined && r !== undefined ? "changed" : l !== undefined ? "removed" : "added",
        ...(l !== undefined && { left: { line: l + 1, text: left[l]! } }),
        ...(r !== undefined && { right: { line: r + 1, text: right[r]! } }),
      });
    }
    removed = [];
    added = [];
  };
  for (const step of steps) {
    if (step === "same") {
      flush();
      rows.push({ kind: "same", left: { line: i + 1, text: left[i]! }, right: { line: j + 1, text: right[j]! } });
      i++;
      j++;
    } else if (step === "removed") {
      if (added.length > 0) flush();
      removed.push(i++);
    } else {
      added.push(j++);
    }
  }
  flush();
  return rows;
}
