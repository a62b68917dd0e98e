// Where svc-server keeps its FTDC files: -ftdc-dir, or ~/.svc/diagnostics.data/<part id>, "local"
// for a machine svc-cloud does not manage. A part id that is not a plain file name is not used
// as one.
import { homedir } from "node:os";
import { join } from "node:path";

export function defaultFtdcDir(partId: string | undefined, home = homedir()): string {
  const name = partId !== undefined && /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/.test(partId) ? partId : "local";
  return join(home, ".svc", "diagnostics.data", name);
}
