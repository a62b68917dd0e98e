// Reads the code blocks of the project's Markdown (README.md, docs/), so tests run the commands
// and code a reader would copy exactly as they are written, and check the rest.
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";

export const repositoryRoot = join(import.meta.dirname, "..", "..");

export interface GuideBlock {
  /** The fence's language (`sh`, `json`, `js`...), or "". */
  lang: string;
  /** Words after the language (`json release-index` -> ["release-index"]): what kind of block it is. */
  tags: string[];
  text: string;
}

export interface PlacedBlock extends GuideBlock {
  /** The file, relative to the repository root. */
  file: string;
  /** 1-based line of the opening fence. */
  line: number;
  /** The headings the block sits under, outermost first (without the `#`s). */
  headings: string[];
}

const OPENING_FENCE = /^```(\S*)(.*)$/;
const CLOSING_FENCE = /^```\s*$/;
const HEADING = /^(#+)\s+(.*)$/;

/** Every fenced code block of a Markdown file, with where it is. */
export function markdownBlocks(file: string): PlacedBlock[] {
  const lines = readFileSync(join(repositoryRoot, file), "utf8").split("\n");
  const blocks: PlacedBlock[] = [];
  const headings: Array<{ level: number; text: string }> = [];
  let open: PlacedBlock | undefined;
  lines.forEach((line, index) => {
    if (open) {
      if (CLOSING_FENCE.test(line)) {
        blocks.push(open);
        open = undefined;
      } else open.text += `${line}\n`;
      return;
    }
    const heading = HEADING.exec(line);
    if (heading) {
      const level = heading[1]!.length;
      while (headings.length > 0 && headings[headings.length - 1]!.level >= level) headings.pop();
      headings.push({ level, text: heading[2]!.trim() });
      return;
    }
    const fence = OPENING_FENCE.exec(line);
    if (fence) {
      const tags = fence[2]!.trim().split(/\s+/).filter(Boolean);
      open = { lang: fence[1] ?? "", tags, text: "", file, line: index + 1, headings: headings.map((h) => h.text) };
    }
  });
  if (open) throw new Error(`${file}:${(open as PlacedBlock).line}: a code block is never closed`);
  return blocks;
}

/** The fenced code blocks of the section under `heading` (to the next heading of its level or above). */
export function guideBlocks(file: string, heading: string): GuideBlock[] {
  const blocks = markdownBlocks(file);
  const text = readFileSync(join(repositoryRoot, file), "utf8");
  if (!text.split("\n").some((line) => HEADING.exec(line)?.[2]?.trim() === heading)) {
    throw new Error(`${file} has no heading "${heading}"`);
  }
  return blocks.filter((block) => block.headings.includes(heading)).map(({ lang, tags, text }) => ({ lang, tags, text }));
}

/** The block right after `blocks[index]` when it is a `text` block: what the command prints. */
export function shownOutput(blocks: readonly GuideBlock[], index: number): string {
  const next = blocks[index + 1];
  if (next?.lang !== "text") throw new Error(`the block after block ${index} is not the output it prints`);
  return next.text;
}

/** The project's Markdown files (README.md, docs/, and those beside the code), relative to the root. */
export function markdownFiles(): string[] {
  const skip = new Set(["node_modules", "dist", "bin", "artifacts"]);
  const found: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (skip.has(entry.name) || entry.name.startsWith(".")) continue;
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith(".md")) found.push(relative(repositoryRoot, path));
    }
  };
  walk(repositoryRoot);
  return found.sort();
}
