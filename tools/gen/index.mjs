// npm run gen: runs every generator (tools/gen/*.gen.mjs) in name order. Generated files are
// committed; tests check that a fresh run reproduces them (no drift).
import { readdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
for (const file of readdirSync(here).filter((f) => f.endsWith(".gen.mjs")).sort()) {
  const generator = await import(pathToFileURL(join(here, file)).href);
  await generator.generate();
  console.log(`gen: ${file} done`);
}
