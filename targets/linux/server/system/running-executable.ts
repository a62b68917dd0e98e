// Which file is "this executable" for --aix-install: the AppImage when run as one (the runtime
// sets APPIMAGE), the single executable when the program is one, else the script node runs.
import { realpathSync } from "node:fs";
import { createRequire } from "node:module";

export interface ProcessFacts {
  env: NodeJS.ProcessEnv;
  argv: readonly string[];
  execPath: string;
  /** True when node runs as a single executable application. */
  isSingleExecutable: boolean;
}

export function runningExecutable(facts: ProcessFacts = currentProcess()): string {
  if (facts.env.APPIMAGE) return facts.env.APPIMAGE;
  if (facts.isSingleExecutable || !facts.argv[1]) return facts.execPath;
  try {
    return realpathSync(facts.argv[1]);
  } catch {
    return facts.argv[1];
  }
}

function currentProcess(): ProcessFacts {
  return { env: process.env, argv: process.argv, execPath: process.execPath, isSingleExecutable: isSingleExecutable() };
}

// A single executable carries its script as a blob and has no script path of its own. node:sea
// is missing from early Node 20 releases, which cannot build one anyway.
function isSingleExecutable(): boolean {
  try {
    return (createRequire(import.meta.url)("node:sea") as { isSea(): boolean }).isSea();
  } catch {
    return false;
  }
}
