// What the agent must remember about an update across its own restarts (and a kill -9): a server
// version installed but waiting for its moment, and a version on probation since its activation.
// One small JSON file, replaced atomically, so a crash leaves either the old or the new state.
import { readFileSync } from "node:fs";
import { writeFileAtomicSync } from "../../system/atomic-file.js";

export interface UpdateState {
  /** Installed under versions/, to be activated when allowed. */
  pendingServer?: string;
  /** Activated and not yet proven; `previous` is what a rollback returns to. */
  probation?: { version: string; previous?: string };
}

export interface UpdateStateFile {
  read(): UpdateState;
  write(state: UpdateState): void;
}

export function updateStateFile(path: string): UpdateStateFile {
  return {
    read() {
      try {
        const data = JSON.parse(readFileSync(path, "utf8")) as UpdateState;
        return typeof data === "object" && data !== null ? data : {};
      } catch {
        return {};
      }
    },
    write(state) {
      writeFileAtomicSync(path, `${JSON.stringify(state, null, 2)}\n`);
    },
  };
}
