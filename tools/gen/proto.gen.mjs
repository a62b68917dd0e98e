// Generates TypeScript for the .proto files in proto/ with buf and protoc-gen-es, both run from
// node_modules (no network). proto/buf.gen.yaml holds the plugin options; this script only
// picks the output directory. Output is first written to a fresh temporary directory, so a
// failed run never leaves the target half written.
import { execFile } from "node:child_process";
import { cpSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const protoDir = join(root, "proto");
const buf = join(root, "node_modules", ".bin", "buf");

/** Writes the generated code for every file under proto/ into outDir (relative to the repo root). */
export async function generate(outDir = "proto/gen") {
  const target = resolve(root, outDir);
  const scratch = mkdtempSync(join(tmpdir(), "svc-proto-gen-"));
  try {
    // buf.gen.yaml writes to "gen" below --output; the plugin path in it is relative to proto/.
    await promisify(execFile)(buf, ["generate", "--template", "buf.gen.yaml", "--output", scratch], {
      cwd: protoDir,
      env: { ...process.env, PATH: `${dirname(process.execPath)}:${process.env.PATH ?? ""}` },
    }).catch((error) => {
      throw new Error(`buf generate failed: ${error.stderr || error.message}`);
    });
    rmSync(target, { recursive: true, force: true });
    cpSync(join(scratch, "gen"), target, { recursive: true });
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}
