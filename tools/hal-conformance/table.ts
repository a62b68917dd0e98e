// The harness's report: one aligned row per check and a summary line.
import type { ConformanceRow } from "./conformance.js";

export function formatTable(rows: readonly ConformanceRow[]): string[] {
  const width = Math.max("capability".length, ...rows.map((r) => r.capability.length));
  const label = { pass: "pass", fail: "FAIL", skip: "skipped" };
  const lines = [`${"capability".padEnd(width)}  result   detail`, `${"-".repeat(width)}  -------  ------`];
  for (const row of rows) lines.push(`${row.capability.padEnd(width)}  ${label[row.status].padEnd(7)}  ${row.detail}`.trimEnd());
  const count = (s: ConformanceRow["status"]) => rows.filter((r) => r.status === s).length;
  lines.push(`${count("pass")} passed, ${count("fail")} failed, ${count("skip")} skipped`);
  return lines;
}
