// Saving a configuration file the machine follows: the new text goes to a temporary file in the
// same folder, which is then renamed over the file (the file watcher sees one complete change,
// never half a file), keeping the file's permissions. The text it replaces, when the machine runs
// it without complaint, is kept first beside it as `<file>.last-good` (renamed into place the same
// way), so a person can always go back to a configuration that worked.
import { randomBytes } from "node:crypto";
import { readFile, rename, rm, stat, writeFile } from "node:fs/promises";
import { basename, dirname, join } from "node:path";

export const LAST_GOOD_SUFFIX = ".last-good";

export interface ConfigFileWrite {
  file: string;
  text: string;
  /** True when the text now in the file is one the machine took: it becomes the last good one. */
  currentIsGood: boolean;
}

export async function writeConfigFile(write: ConfigFileWrite): Promise<void> {
  const { file, text } = write;
  const mode = (await stat(file).catch(() => undefined))?.mode ?? 0o600;
  if (write.currentIsGood) {
    const current = await readFile(file, "utf8").catch(() => undefined);
    if (current !== undefined) await replaceAtomically(`${file}${LAST_GOOD_SUFFIX}`, current, mode);
  }
  await replaceAtomically(file, text, mode);
}

async function replaceAtomically(file: string, text: string, mode: number): Promise<void> {
  const temporary = join(dirname(file), `.${basename(file)}.${randomBytes(6).toString("hex")}.tmp`);
  try {
    await writeFile(temporary, text, { mode: mode & 0o777, flag: "wx" });
    await rename(temporary, file);
  } catch (thrown) {
    await rm(temporary, { force: true });
    throw thrown;
  }
}
