// Reads a guide's code blocks, so tests run the commands and code a reader would copy exactly as
// they are written.
import { readFileSync } from "node:fs";
import { join } from "node:path";

export const repositoryRoot = join(import.meta.dirname, "..", "..");

export interface GuideBlock {
  /** The fence's language (`sh`, `json`, `js`...), or "". */
  lang: string;
  text: string;
}

/** The fenced code blocks of the section under `heading` (to the next heading of its level or above). */
export function guideBlocks(file: string, heading: string): GuideBlock[] {
  const lines = readFileSync(join(repositoryRoot, file), "utf8").split("\n");
  const start = lines.findIndex((line) => line.replace(/^#+\s*/, "") === heading && line.startsWith("#"));
  if (start < 0) throw new Error(`${file} has no heading "${heading}"`);
  const level = /^#+/.exec(lines[start]!)![0].length;
  const blocks: GuideBlock[] = [];
  let open: GuideBlock | undefined;
  for (const line of lines.slice(start + 1)) {
    if (!open && /^#+\s/.test(line) && /^#+/.exec(line)![0].length <= level) break;
    const fence = /^```(\S*)\s*$/.exec(line);
    if (fence && !open) open = { lang: fence[1] ?? "", text: "" };
    else if (fence && open) {
      blocks.push(open);
      open = undefined;
    } else if (open) open.text += `${line}\n`;
  }
  return blocks;
}
