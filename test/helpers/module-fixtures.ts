// Test modules built from their TypeScript source into executables, as a module author's build
// would: one bundle per module, with a node shebang and the executable bit. The example modules
// are built by `npm run build` into dist/modules.
import { build } from "esbuild";
import { chmodSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

export const repoRoot = fileURLToPath(new URL("../..", import.meta.url));
export const exampleCounter = join(repoRoot, "dist/modules/counter.mjs");

export interface BuiltModules {
  path(name: string): string;
  remove(): void;
}

/** Bundles `test/fixtures/modules/<name>.ts` for each name into a temporary folder. */
export async function buildFixtureModules(names: string[]): Promise<BuiltModules> {
  const dir = mkdtempSync(join(tmpdir(), "svc-fixture-modules-"));
  await build({
    absWorkingDir: repoRoot,
    entryPoints: Object.fromEntries(names.map((n) => [n, `test/fixtures/modules/${n}.ts`])),
    outdir: dir,
    outExtension: { ".js": ".mjs" },
    bundle: true,
    platform: "node",
    target: "node20",
    format: "esm",
    banner: { js: '#!/usr/bin/env node\nimport { createRequire as __r } from "node:module"; const require = __r(import.meta.url);' },
    logLevel: "error",
  });
  for (const n of names) chmodSync(join(dir, `${n}.mjs`), 0o755);
  return { path: (name) => join(dir, `${name}.mjs`), remove: () => rmSync(dir, { recursive: true, force: true }) };
}
