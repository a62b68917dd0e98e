// Checks, before any work is done, that a file can be written where an option asks: its folder
// exists and is a folder. Failing at start beats failing at shutdown after a long run.
import { statSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { DiagnosticsError } from "./diagnostics-error.js";

export function checkOutputPath(option: string, path: string): string {
  const file = resolve(path);
  const folder = dirname(file);
  let isFolder: boolean;
  try {
    isFolder = statSync(folder).isDirectory();
  } catch {
    throw new DiagnosticsError(`${option} ${JSON.stringify(path)}: the directory ${folder} does not exist`);
  }
  if (!isFolder) throw new DiagnosticsError(`${option} ${JSON.stringify(path)}: ${folder} is not a directory`);
  return file;
}
