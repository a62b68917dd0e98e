// The harness's report: one aligned row per check and a summary line; a run that judged nothing
// says why, since "0 failed" must never read as a pass.
import type { ConformanceRow } from "./conformance.js";

/** True when no check passed or failed: the run proved nothing about the backend. */
export function checkedNothing(rows: readonly ConformanceRow[]): boolean {
  return rows.every((r) => r.status === "skip");
}

export function formatTable(rows: readonly ConformanceRow[]): string[] {
  const width = Math.max("capability".length, ...rows.map((r) => r.capability.length));
  const label = { pass: "pass", fail: "FAIL", skip: "skipped" };
  const lines = [`${"capability".padEnd(width)}  result   detail`, `${"-".repeat(width)}  -------  ------`];
  for (const row of rows) lines.push(`${row.capability.padEnd(width)}  ${label[row.status].padEnd(7)}  ${row.detail}`.trimEnd());
  const count = (s: ConformanceRow["status"]) => rows.filter((r) => r.status === s).length;
  lines.push(`${count("pass")} passed, ${count("fail")} failed, ${count("skip")} skipped`);
  if (checkedNothing(rows)) lines.push(`nothing was checked: ${rows.map((r) => r.detail).join("; ") || "no checks ran"}`);
  return lines;
}
