// The text of a configuration file, read once at start or for -validate: a file too large to
// hold a configuration is refused from its size and never read (watch-config-file.ts holds the
// followed file to the same bound).
import { readFileSync, statSync } from "node:fs";
import { MAX_CONFIG_FILE_BYTES, tooLargeMessage } from "./watch-config-file.js";

/** The file's text, or why it cannot be had ("<file> does not exist", "<file> is 67108864 bytes: ..."). */
export function readConfigText(file: string): { text: string } | { problem: string } {
  try {
    const { size } = statSync(file);
    if (size > MAX_CONFIG_FILE_BYTES) return { problem: tooLargeMessage(file, size) };
    return { text: readFileSync(file, "utf8") };
  } catch (e) {
    return { problem: `${file}: cannot read: ${(e as Error).message}` };
  }
}
