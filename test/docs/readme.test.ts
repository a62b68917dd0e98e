// README.md is the front door, and the manual behind it holds together: the README stays short
// (at most 220 lines), gives the two commands exactly, and links every page of docs/ (and only
// pages that exist); every relative link in the project's Markdown reaches a file, and every
// anchor a heading of that file.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, normalize } from "node:path";
import { describe, expect, it } from "vitest";
import { guideBlocks, markdownFiles, repositoryRoot } from "../helpers/guide.js";

const README_MAX_LINES = 220;
const read = (file: string) => readFileSync(join(repositoryRoot, file), "utf8");
const readme = read("README.md");

/** GitHub's anchor for a heading: lower case, punctuation dropped but "-" and "_", spaces as "-". */
function headingAnchor(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N} _-]/gu, "")
    .replace(/ /g, "-");
}

/** The anchors of a Markdown file's headings (outside code blocks). */
function anchorsOf(text: string): Set<string> {
  const anchors = new Set<string>();
  let inCode = false;
  for (const line of text.split("\n")) {
    if (line.startsWith("```")) inCode = !inCode;
    const heading = !inCode && /^#+\s+(.*)$/.exec(line);
    if (heading) anchors.add(headingAnchor(heading[1]!));
  }
  return anchors;
}

/** Relative links `[text](target)` outside code blocks and code spans. */
function relativeLinks(text: string): string[] {
  const prose = text.replace(/```[\s\S]*?```/g, "").replace(/`[^`\n]*`/g, "");
  return [...prose.matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1]!).filter((target) => !/^[a-z]+:/i.test(target));
}

describe("README.md", () => {
  it(`is a front door: at most ${README_MAX_LINES} lines`, () => {
    expect(readme.split("\n").length).toBeLessThanOrEqual(README_MAX_LINES);
  });

  it("gives the two commands exactly", () => {
    const [block] = guideBlocks("README.md", "Two commands");
    const commands = block!.text.trim().split("\n").map((line) => line.replace(/\s+#.*$/, ""));
    expect(commands).toEqual(["npm install && npm start", "npm install && npm test"]);
  });

  it("links every page of docs/, and only pages that exist", () => {
    const pages = readdirSync(join(repositoryRoot, "docs")).filter((f) => f.endsWith(".md")).map((f) => `docs/${f}`).sort();
    const linked = [...new Set(relativeLinks(readme).map((t) => t.split("#")[0]!).filter((t) => t.startsWith("docs/")))].sort();
    expect(linked).toEqual(pages);
  });
});

describe("links", () => {
  it.each(markdownFiles())("%s: every relative link reaches a file, and every anchor a heading", (file) => {
    const broken = relativeLinks(read(file)).filter((target) => {
      const [path, anchor] = target.split("#");
      const linked = path === "" ? file : normalize(join(dirname(file), path!));
      if (!existsSync(join(repositoryRoot, linked))) return true;
      return anchor !== undefined && linked.endsWith(".md") && !anchorsOf(read(linked)).has(anchor);
    });
    expect(broken).toEqual([]);
  });

  it("anchors are GitHub's", () => {
    expect(headingAnchor("Checking a configuration: `-validate`")).toBe("checking-a-configuration--validate");
    expect(headingAnchor("The API port")).toBe("the-api-port");
  });
});
