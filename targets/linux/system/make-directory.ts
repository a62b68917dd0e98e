// Creating a directory and its missing parents. Node 20's `mkdirSync(path, { recursive: true })`
// loops forever, at full CPU, where mkdir answers ENOENT for a parent that exists but takes no new
// entries (/proc, /sys); this walks up once and fails with the system's own error instead.
import { mkdirSync, statSync } from "node:fs";
import { dirname } from "node:path";

export function makeDirectorySync(path: string): void {
  try {
    mkdirSync(path);
    return;
  } catch (thrown) {
    const code = (thrown as NodeJS.ErrnoException).code;
    if (code === "EEXIST" && statSync(path).isDirectory()) return;
    const parent = dirname(path);
    if (code !== "ENOENT" || parent === path) throw thrown;
    makeDirectorySync(parent);
  }
  // The parent is there now: a second failure (ENOENT under /proc) is the answer, thrown as is.
  mkdirSync(path);
}
