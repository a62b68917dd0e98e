// Function bodies that outgrew one reading. A body of more than LIMIT lines of code (lines with
// something besides blanks and comments, so that comments saying why cost nothing) holds several
// ideas; the suite fails on each one, naming file, line, function and length. Measured on the
// TypeScript compiler's own syntax tree (the `typescript` package's API), over every file of the
// project's tsconfig.json but generated code. In a test file, the callback of a `describe` is a
// list of cases, each measured on its own, not a function read as one: it is not measured.
//
//   node tools/check/function-size.mjs [project-dir]
import { SyntaxKind } from "typescript/unstable/ast";
import { getLeadingCommentRanges, getTrailingCommentRanges } from "typescript/unstable/ast/scanner";
import { mapProjectSources } from "./project-sources.mjs";

export const FUNCTION_BODY_LIMIT = 100;

/** Generated code is exempt: it is written by tools, never read as a design. */
export const GENERATED_FOLDERS = ["proto/gen", "targets/mcu/codec/gen"];

const FUNCTION_KINDS = new Set([
  SyntaxKind.FunctionDeclaration,
  SyntaxKind.FunctionExpression,
  SyntaxKind.ArrowFunction,
  SyntaxKind.MethodDeclaration,
  SyntaxKind.Constructor,
  SyntaxKind.GetAccessor,
  SyntaxKind.SetAccessor,
]);

/**
 * Every function of the project at `projectDir` (its tsconfig.json) whose body is longer than
 * `limit` lines of code, longest first: `{ file, line, name, lines }`, file relative to the project.
 */
export function longFunctions(projectDir, { limit = FUNCTION_BODY_LIMIT, exempt = GENERATED_FOLDERS } = {}) {
  const found = mapProjectSources(projectDir, (file, source) => {
    if (exempt.some((folder) => file.startsWith(`${folder}/`))) return [];
    const testFile = /\.test\.[cm]?[jt]s$/.test(file);
    return measureFunctions(source)
      .filter((f) => f.lines > limit && !(testFile && f.suite))
      .map(({ suite: _, ...f }) => ({ file, ...f }));
  });
  return found.sort((a, b) => b.lines - a.lines || a.file.localeCompare(b.file));
}

/**
 * Each function of one parsed file: its line (1-based), a readable name, its body's lines of code,
 * and whether it is the callback of a `describe` (a suite of test cases).
 */
export function measureFunctions(source) {
  const code = codeLines(source);
  const lineOf = (pos) => source.getLineAndCharacterOfPosition(pos).line;
  const measured = [];
  const visit = (node) => {
    if (FUNCTION_KINDS.has(node.kind) && node.body !== undefined) {
      const first = lineOf(node.body.getStart(source));
      const last = lineOf(node.body.end);
      // A block's own brace lines belong to the signature and the end; an expression body counts whole.
      const [from, to] = node.body.kind === SyntaxKind.Block ? [first + 1, last - 1] : [first, last];
      let lines = 0;
      for (let line = from; line <= to; line++) if (code[line]) lines++;
      measured.push({ line: lineOf(node.getStart(source)) + 1, name: functionName(node), lines, suite: isSuite(node) });
    }
    node.forEachChild(visit);
  };
  visit(source);
  return measured;
}

// Which lines hold code: anything but whitespace outside comments. Comments live in the trivia
// before a node's start and after its end; both are read at every node, once per file.
function codeLines(source) {
  const text = source.text;
  const comment = new Uint8Array(text.length);
  const seen = new Set();
  const markTrivia = (pos) => {
    if (seen.has(pos)) return;
    seen.add(pos);
    for (const range of [...(getLeadingCommentRanges(text, pos) ?? []), ...(getTrailingCommentRanges(text, pos) ?? [])]) {
      comment.fill(1, range.pos, range.end);
    }
  };
  const visit = (node) => {
    markTrivia(node.pos);
    markTrivia(node.end);
    node.forEachChild(visit);
  };
  visit(source);
  const lines = [false];
  for (let i = 0, line = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    if (ch === 10) lines[++line] = false;
    else if (!comment[i] && ch !== 32 && ch !== 9 && ch !== 13) lines[line] = true;
  }
  return lines;
}

// The name a reader would search for: the declaration's own name, the variable or property it
// is assigned to, or the call it is handed to (`describe("...") callback`).
function functionName(node) {
  if (node.kind === SyntaxKind.Constructor) return `${nameOf(node.parent) ?? "class"} constructor`;
  const own = nameOf(node);
  if (own !== undefined) return own;
  const parent = node.parent;
  const assigned = parent !== undefined && parent.kind !== SyntaxKind.CallExpression ? nameOf(parent) : undefined;
  if (assigned !== undefined) return assigned;
  if (parent?.kind === SyntaxKind.CallExpression) {
    const callee = parent.expression.getText(node.getSourceFile());
    const first = parent.arguments[0];
    const label = first !== undefined && first !== node && first.kind === SyntaxKind.StringLiteral ? `(${first.getText(node.getSourceFile())})` : "(...)";
    return `${callee}${label} callback`;
  }
  return "(anonymous)";
}

/** The callback of `describe(...)`, `describe.each(...)(...)` and every other call whose callee starts with `describe`. */
function isSuite(node) {
  const call = node.parent;
  if (call?.kind !== SyntaxKind.CallExpression || !call.arguments.includes(node)) return false;
  return /^describe\b/.test(call.expression.getText(node.getSourceFile()));
}

function nameOf(node) {
  const name = node?.name;
  if (name === undefined) return undefined;
  return name.kind === SyntaxKind.Identifier || name.kind === SyntaxKind.PrivateIdentifier || name.kind === SyntaxKind.StringLiteral ? name.text : name.getText(node.getSourceFile());
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const found = longFunctions(process.argv[2] ?? ".");
  for (const f of found) console.log(`${f.file}:${f.line} ${f.name}: ${f.lines} lines of code (limit ${FUNCTION_BODY_LIMIT})`);
  process.exitCode = found.length === 0 ? 0 : 1;
}
