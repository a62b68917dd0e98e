// Small projects written under $TMPDIR for the source checks in tools/check: a file tree and,
// when compiler options are given, its tsconfig.json. Each is removed after the test that made it.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterEach } from "vitest";

/** A maker of projects named `svc-<name>-...`; call it at a test file's top level. */
export function scratchProjects(name: string, compilerOptions?: Record<string, unknown>): (files: Record<string, string>) => string {
  const dirs: string[] = [];
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });
  return (files) => {
    const dir = mkdtempSync(join(tmpdir(), `svc-${name}-`));
    dirs.push(dir);
    if (compilerOptions) writeFileSync(join(dir, "tsconfig.json"), JSON.stringify({ compilerOptions: { strict: true, noEmit: true, ...compilerOptions }, include: ["."] }));
    for (const [file, text] of Object.entries(files)) {
      mkdirSync(dirname(join(dir, file)), { recursive: true });
      writeFileSync(join(dir, file), text);
    }
    return dir;
  };
}
