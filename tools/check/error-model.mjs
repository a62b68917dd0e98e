// The error model stays one model. svc has one set of status codes (core/errors/code.ts, gRPC's),
// one error class in the core (SvcError) and one way to read the message of anything thrown
// (errorMessage); a second vocabulary creeps back easily (a copy of the code table, connect's own
// `Code` in a target, an `instanceof Error ? e.message : String(e)` written inline, two classes
// of one name), so the suite fails on each one, naming the file and line.
//
//   node tools/check/error-model.mjs [project-dir]
import { readdirSync, readFileSync } from "node:fs";
import { join, relative, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { GENERATED_FOLDERS } from "./function-size.mjs";

/** Where the project's own source lives; tests speak to svc as clients do, with connect's names. */
export const SOURCE_FOLDERS = ["core", "hal", "node", "targets", "tools"];

const CODE_TABLE = "core/errors/code.ts";
const ERROR_CLASS = "core/errors/svc-error.ts";
const ERROR_MESSAGE = "core/errors/error-message.ts";
// hal/ may not import the core (the core imports hal/io.ts), so it keeps its own few words.
const WITHOUT_CORE = ["hal/"];

const rules = [
  {
    // A status code table: an object naming a code with its gRPC number.
    pattern: /\bInvalidArgument\s*[:=]\s*3\b/g,
    allowed: (file) => file === CODE_TABLE,
    problem: () => `a second table of status codes; use Code from ${CODE_TABLE}`,
  },
  {
    pattern: /import\s*(?:type\s*)?\{[^}]*\bCode\b[^}]*\}\s*from\s*"@connectrpc\/connect"/g,
    allowed: () => false,
    problem: () => `connect's Code imported; the status codes are core's Code (${CODE_TABLE})`,
  },
  {
    pattern: /\bclass\s+(\w+)\s+extends\s+\w*Error\b/g,
    allowed: (file) => !file.startsWith("core/") || file === ERROR_CLASS,
    problem: (match) => `class ${match[1]} in the core; the core raises SvcError (${ERROR_CLASS})`,
  },
  {
    pattern: /\b(\w+) instanceof Error \? \1\.message : String\(\1\)/g,
    allowed: (file) => WITHOUT_CORE.some((folder) => file.startsWith(folder)),
    problem: () => `the message of a thrown value read inline; use errorMessage (${ERROR_MESSAGE})`,
  },
  {
    pattern: /\bfunction\s+(errorMessage|reasonOf|messageOf)\s*\(/g,
    allowed: (file) => file === ERROR_MESSAGE,
    problem: (match) => `a second ${match[1]}; use errorMessage (${ERROR_MESSAGE})`,
  },
];

function sourceFiles(root, folder, found = []) {
  let entries;
  try {
    entries = readdirSync(join(root, folder), { withFileTypes: true });
  } catch {
    return found;
  }
  for (const entry of entries) {
    const path = `${folder}/${entry.name}`;
    if (entry.isDirectory()) {
      if (entry.name !== "node_modules" && !GENERATED_FOLDERS.includes(path)) sourceFiles(root, path, found);
    } else if (entry.name.endsWith(".ts")) {
      found.push(path);
    }
  }
  return found;
}

function lineOf(text, index) {
  let line = 1;
  for (let i = text.indexOf("\n"); i !== -1 && i < index; i = text.indexOf("\n", i + 1)) line++;
  return line;
}

/** Every place in the project at `projectDir` where a second error vocabulary appears: `{ file, line, problem }`. */
export function errorModelProblems(projectDir) {
  const root = resolve(projectDir);
  const found = [];
  const errorClasses = new Map();
  for (const file of SOURCE_FOLDERS.flatMap((folder) => sourceFiles(root, folder))) {
    const text = readFileSync(join(root, file), "utf8");
    for (const rule of rules) {
      for (const match of text.matchAll(rule.pattern)) {
        if (!rule.allowed(file)) found.push({ file, line: lineOf(text, match.index), problem: rule.problem(match) });
      }
    }
    for (const match of text.matchAll(/\bclass\s+(\w+)\s+extends\s+\w*Error\b/g)) {
      const where = { file, line: lineOf(text, match.index) };
      errorClasses.set(match[1], [...(errorClasses.get(match[1]) ?? []), where]);
    }
  }
  for (const [name, places] of errorClasses) {
    if (places.length < 2) continue;
    for (const place of places.slice(1)) {
      found.push({ ...place, problem: `a second class ${name} (the first is in ${places[0].file}); one idea, one class` });
    }
  }
  return found.sort((a, b) => a.file.localeCompare(b.file) || a.line - b.line);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const root = process.argv[2] ?? join(fileURLToPath(import.meta.url), "..", "..", "..");
  const problems = errorModelProblems(root);
  for (const p of problems) console.log(`${relative(process.cwd(), join(root, p.file)).split(sep).join("/")}:${p.line}: ${p.problem}`);
  process.exit(problems.length > 0 ? 1 : 0);
}
