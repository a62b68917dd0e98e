// The maps of the house (README.md, docs/architecture.md) cannot go stale: every folder and file
// a map names exists where it says, the top level lists every folder the repository has, and a
// folder whose subfolders a map lists (on lines of their own below it, or named on its line) has
// all of them listed. Folders git ignores (node_modules, dist) and hidden ones are not the house.
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { guideBlocks, repositoryRoot } from "../helpers/guide.js";

interface MapEntry {
  /** Relative to the repository root, folders ending in "/": "core/config/". */
  path: string;
  /** Subfolders the map lists for this folder, by name ("sim/"). */
  listed: Set<string>;
  /** Files named on its line, relative to the repository root. */
  files: string[];
}

const FOLDER = /^[A-Za-z0-9][\w.-]*\/$/;
const FILE = /^[A-Za-z0-9][\w.-]*\.(ts|mjs|js|json|md|proto)$/;

/** The entries of a map: `name/  description` a line, two spaces of indent a level. */
function readMap(text: string): { root: Set<string>; entries: MapEntry[] } {
  const root = new Set<string>();
  const entries: MapEntry[] = [];
  const parents: MapEntry[] = [];
  for (const line of text.split("\n").filter((l) => l.trim() !== "")) {
    const [, indent, name, description] = /^( *)(\S+)(.*)$/.exec(line)!;
    const depth = indent!.length / 2;
    if (!Number.isInteger(depth) || depth > parents.length) throw new Error(`map line indented oddly: "${line}"`);
    if (!FOLDER.test(name!)) throw new Error(`a map line starts with a folder ("name/"): "${line}"`);
    parents.length = depth;
    const parent = parents[depth - 1];
    const entry: MapEntry = { path: `${parent?.path ?? ""}${name}`, listed: new Set(), files: [] };
    (parent ? parent.listed : root).add(name!);
    for (const word of description!.split(/\s+/).map((w) => w.replace(/^[(["'`]+|[)\]"'`,;:.]+$/g, ""))) {
      if (FOLDER.test(word)) entry.listed.add(word);
      else if (FILE.test(word)) entry.files.push(`${entry.path}${word}`);
    }
    entries.push(entry);
    parents.push(entry);
  }
  return { root, entries };
}

/** The folders of `dir` that are part of the house: not hidden, not ignored by git. */
function subfolders(dir: string): Set<string> {
  const names = readdirSync(join(repositoryRoot, dir), { withFileTypes: true })
    .filter((e) => e.isDirectory() && !e.name.startsWith("."))
    .map((e) => e.name);
  const paths = names.map((name) => `${dir}${name}/`);
  const ignored = spawnSync("git", ["check-ignore", ...paths], { cwd: repositoryRoot, encoding: "utf8" }).stdout.split("\n");
  return new Set(names.filter((_, i) => !ignored.includes(paths[i]!)).map((name) => `${name}/`));
}

const maps = {
  "README.md": guideBlocks("README.md", "The map of the house"),
  "docs/architecture.md": guideBlocks("docs/architecture.md", "Layout"),
};

describe.each(Object.entries(maps))("the map in %s", (_file, blocks) => {
  const text = blocks.filter((b) => b.lang === "text")[0]?.text ?? "";
  const { root, entries } = readMap(text);

  it("is there", () => {
    expect(entries.length).toBeGreaterThan(0);
  });

  it("lists every top-level folder, and only those", () => {
    expect([...root].sort()).toEqual([...subfolders("")].sort());
  });

  it("names only folders and files that exist", () => {
    const missing = entries.flatMap((e) => [e.path, ...[...e.listed].map((name) => `${e.path}${name}`), ...e.files]).filter((path) => {
      const full = join(repositoryRoot, path);
      return !existsSync(full) || statSync(full).isDirectory() !== path.endsWith("/");
    });
    expect(missing).toEqual([]);
  });

  it("lists all the subfolders of a folder whose subfolders it lists", () => {
    const incomplete = entries
      .filter((e) => e.listed.size > 0)
      .flatMap((e) => [...subfolders(e.path)].filter((name) => !e.listed.has(name)).map((name) => `${e.path}${name} is not on the map`));
    expect(incomplete).toEqual([]);
  });
});

describe("reading a map", () => {
  it("finds a missing folder, one that does not exist, and a file named on a line", () => {
    const { root, entries } = readMap("core/      the core\n  config/  parser\nhal/   io.ts and sim/ linux/\n");
    expect([...root]).toEqual(["core/", "hal/"]);
    expect(entries.map((e) => e.path)).toEqual(["core/", "core/config/", "hal/"]);
    expect([...entries[2]!.listed]).toEqual(["sim/", "linux/"]);
    expect(entries[2]!.files).toEqual(["hal/io.ts"]);
  });
});
