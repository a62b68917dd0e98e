// The text of a configuration file, read once at start or for -validate: a file too large to
// hold a configuration is refused from its size and never read (watch-config-file.ts holds the
// followed file to the same bound), and `${NAME}` references are filled in from the environment
// (expand-environment.ts), as for every later text of the file.
import { readFileSync, statSync } from "node:fs";
import { expandEnvironment, type Environment, type Expanded } from "./expand-environment.js";
import { MAX_CONFIG_FILE_BYTES, tooLargeMessage } from "./watch-config-file.js";

/**
 * The file's text with its references filled in, and as written (what the file watcher compares
 * with), or why it cannot be had ("<file> does not exist", "<file> is 67108864 bytes: ...").
 */
export function readConfigText(file: string, env: Environment = process.env): { text: string; written: string } | { problem: string } {
  let text: string;
  try {
    const { size } = statSync(file);
    if (size > MAX_CONFIG_FILE_BYTES) return { problem: tooLargeMessage(file, size) };
    text = readFileSync(file, "utf8");
  } catch (e) {
    return { problem: `${file}: cannot read: ${(e as Error).message}` };
  }
  const expanded = expandFileText(file, text, env);
  return "problem" in expanded ? expanded : { text: expanded.text, written: text };
}

/** A text of the configuration file with its `${NAME}` references filled in; a problem names the file. */
export function expandFileText(file: string, text: string, env: Environment): Expanded {
  const expanded = expandEnvironment(text, env);
  return "problem" in expanded ? { problem: `${file}: ${expanded.problem}` } : expanded;
}
