// The direction of dependencies, checked on the import graph. No file imports itself through
// others, no folder does (a folder with its subfolders being one part of the house:
// core/config, targets/linux/server, tools/gen), core/ imports nothing outside itself but
// generated protobuf code and the IO contract hal/io.ts (and, for the types of that generated
// code, @bufbuild/protobuf as types only), so it runs wherever a target takes it, hal/ imports
// no target, no target imports another, and node/ (what the Node programs share) imports no
// target and is imported only by the targets that run on Node. Imports are
// read from the TypeScript compiler's own syntax tree over every file of the project's
// tsconfig.json; the suite fails naming each cycle and each forbidden import.
//
//   node tools/check/import-rules.mjs [project-dir]
import { existsSync, statSync } from "node:fs";
import { join, posix, resolve } from "node:path";
import { SyntaxKind } from "typescript/unstable/ast";
import { mapProjectSources } from "./project-sources.mjs";

/** What core/ may import from outside itself: generated protobuf code and the IO contract. */
const CORE_MAY_IMPORT = [(target) => target.startsWith("proto/gen/"), (target) => target === "hal/io.ts"];
/** Packages core/ may name, for types only: the runtime types generated protobuf code is written in. */
const CORE_TYPE_PACKAGES = [/^@bufbuild\/protobuf(\/wkt)?$/];

/** The targets that run on Node, and so may use node/. */
const NODE_TARGETS = new Set(["linux", "cloud"]);

/** Why `file` may not import `target` (hal/ importing a target, one target importing another), or undefined. */
export function directionProblem(file, target) {
  const [top, platform] = file.split("/");
  const [targetTop, targetPlatform] = target.split("/");
  if (targetTop === "node" && top === "targets" && !NODE_TARGETS.has(platform)) {
    return `targets/${platform} imports ${target}; node/ is for the targets that run on Node`;
  }
  if (targetTop !== "targets") return undefined;
  if (top === "node") return `node/ imports ${target}; what the Node programs share imports none of them`;
  if (top === "hal") return `hal/ imports ${target}; the HAL serves every target and imports none`;
  if (top === "targets" && platform !== targetPlatform) return `targets/${platform} imports ${target}; one target never imports another`;
  return undefined;
}

/** Each import of one parsed file: `{ specifier, line, typeOnly }` (dynamic imports with a literal included). */
export function importsOf(source) {
  const found = [];
  const lineOf = (node) => source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1;
  const visit = (node) => {
    if ((node.kind === SyntaxKind.ImportDeclaration || node.kind === SyntaxKind.ExportDeclaration) && node.moduleSpecifier?.kind === SyntaxKind.StringLiteral) {
      const typeOnly = node.kind === SyntaxKind.ImportDeclaration ? node.importClause?.isTypeOnly === true || onlyTypeNames(node.importClause) : node.isTypeOnly === true;
      found.push({ specifier: node.moduleSpecifier.text, line: lineOf(node), typeOnly });
    } else if (node.kind === SyntaxKind.CallExpression && node.expression.kind === SyntaxKind.ImportKeyword && node.arguments[0]?.kind === SyntaxKind.StringLiteral) {
      found.push({ specifier: node.arguments[0].text, line: lineOf(node), typeOnly: false });
    }
    node.forEachChild(visit);
  };
  visit(source);
  return found;
}

// `import { type A, type B } from` names types only, as `import type` does.
function onlyTypeNames(clause) {
  const bindings = clause?.namedBindings;
  if (clause === undefined || clause.name !== undefined || bindings?.kind !== SyntaxKind.NamedImports) return false;
  return bindings.elements.length > 0 && bindings.elements.every((e) => e.isTypeOnly);
}

/** The project file a relative specifier names (`.js` written for a `.ts` file), or undefined. */
export function resolveImport(root, from, specifier) {
  if (!specifier.startsWith(".")) return undefined;
  const base = posix.join(posix.dirname(from), specifier);
  const candidates = /\.js$/.test(base) ? [base.replace(/\.js$/, ".ts"), base] : [base, `${base}.ts`, `${base}/index.ts`];
  return candidates.find((path) => existsSync(join(root, path)) && statSync(join(root, path)).isFile());
}

/**
 * The part of the house a file belongs to: its top folder and the one below (core/config,
 * tools/gen, test/e2e), or three levels under targets/ (targets/linux/server). A file above that
 * depth (core/clock.ts, hal/io.ts) is a part of its own.
 */
export function partOf(file) {
  const parts = file.split("/");
  const depth = parts[0] === "targets" ? 3 : 2;
  return parts.length > depth ? parts.slice(0, depth).join("/") : file;
}

/** The import graph of the project at `projectDir`: `file -> [{ target, line, typeOnly }]`, and package imports. */
export function importGraph(projectDir) {
  const root = resolve(projectDir);
  const edges = new Map();
  const packages = [];
  mapProjectSources(root, (file, source) => {
    const out = [];
    for (const { specifier, line, typeOnly } of importsOf(source)) {
      if (!specifier.startsWith(".")) {
        packages.push({ file, line, specifier, typeOnly });
        continue;
      }
      const target = resolveImport(root, file, specifier);
      if (target !== undefined) out.push({ target, line, typeOnly });
    }
    edges.set(file, out);
    return [];
  });
  return { edges, packages };
}

// Tarjan's strongly connected components, iteratively (deep chains would overflow the stack).
function stronglyConnected(nodes, next) {
  const index = new Map();
  const low = new Map();
  const onStack = new Set();
  const stack = [];
  const found = [];
  let counter = 0;
  for (const start of nodes) {
    if (index.has(start)) continue;
    const work = [[start, next(start), 0]];
    index.set(start, counter);
    low.set(start, counter++);
    stack.push(start);
    onStack.add(start);
    while (work.length > 0) {
      const frame = work[work.length - 1];
      const [node, targets] = frame;
      if (frame[2] < targets.length) {
        const target = targets[frame[2]++];
        if (!index.has(target)) {
          index.set(target, counter);
          low.set(target, counter++);
          stack.push(target);
          onStack.add(target);
          work.push([target, next(target), 0]);
        } else if (onStack.has(target)) {
          low.set(node, Math.min(low.get(node), index.get(target)));
        }
        continue;
      }
      work.pop();
      if (work.length > 0) {
        const parent = work[work.length - 1][0];
        low.set(parent, Math.min(low.get(parent), low.get(node)));
      }
      if (low.get(node) === index.get(node)) {
        const component = [];
        let member;
        do {
          member = stack.pop();
          onStack.delete(member);
          component.push(member);
        } while (member !== node);
        if (component.length > 1) found.push(component.sort());
      }
    }
  }
  return found;
}

/** One cycle through `first` inside `members`, as a path that ends where it starts. */
function cycleThrough(first, members, next) {
  const inside = new Set(members);
  const previous = new Map([[first, undefined]]);
  const queue = [first];
  while (queue.length > 0) {
    const node = queue.shift();
    for (const target of next(node)) {
      if (!inside.has(target)) continue;
      if (target === first) {
        const path = [first];
        for (let at = node; at !== first; at = previous.get(at)) path.splice(1, 0, at);
        return [...path, first];
      }
      if (!previous.has(target)) {
        previous.set(target, node);
        queue.push(target);
      }
    }
  }
  return [first, first];
}

/**
 * Every breach of the rules in the project at `projectDir`: `{ file, line, problem }`, a cycle
 * named by the first file or folder on it, the problem spelling the whole way round.
 */
export function importProblems(projectDir) {
  const { edges, packages } = importGraph(projectDir);
  const problems = [];
  const targetsOf = (file) => [...new Set((edges.get(file) ?? []).map((e) => e.target))].filter((t) => edges.has(t));
  const where = (from, to) => edges.get(from).find((e) => e.target === to);

  for (const component of stronglyConnected([...edges.keys()].sort(), targetsOf)) {
    const path = cycleThrough(component[0], component, targetsOf);
    problems.push({ file: path[0], line: where(path[0], path[1]).line, problem: `import cycle between files: ${path.join(" -> ")}` });
  }

  const partEdges = new Map();
  for (const [file, out] of edges) {
    for (const { target } of out) {
      const [from, to] = [partOf(file), partOf(target)];
      if (from === to) continue;
      if (!partEdges.has(from)) partEdges.set(from, new Map());
      if (!partEdges.get(from).has(to)) partEdges.get(from).set(to, `${file} imports ${target}`);
    }
  }
  const partsAfter = (part) => [...(partEdges.get(part)?.keys() ?? [])];
  for (const component of stronglyConnected([...partEdges.keys()].sort(), partsAfter)) {
    const path = cycleThrough(component[0], component, partsAfter);
    const steps = path.slice(1).map((to, i) => partEdges.get(path[i]).get(to));
    const [file] = steps[0].split(" imports ");
    problems.push({ file, line: where(file, steps[0].split(" imports ")[1]).line, problem: `import cycle between folders: ${path.join(" -> ")} (${steps.join("; ")})` });
  }

  for (const [file, out] of edges) {
    if (!file.startsWith("core/")) continue;
    for (const { target, line } of out) {
      if (target.startsWith("core/") || CORE_MAY_IMPORT.some((allowed) => allowed(target))) continue;
      problems.push({ file, line, problem: `core/ imports ${target}; it may import only core/, proto/gen/ and hal/io.ts` });
    }
  }
  for (const [file, out] of edges) {
    for (const { target, line } of out) {
      const problem = directionProblem(file, target);
      if (problem !== undefined) problems.push({ file, line, problem });
    }
  }
  for (const { file, line, specifier, typeOnly } of packages) {
    if (!file.startsWith("core/")) continue;
    if (typeOnly && CORE_TYPE_PACKAGES.some((allowed) => allowed.test(specifier))) continue;
    problems.push({ file, line, problem: `core/ imports the package ${specifier}${typeOnly ? "" : " at run time"}; it may import only core/, proto/gen/ and hal/io.ts (and protobuf-es types)` });
  }
  return problems.sort((a, b) => a.file.localeCompare(b.file) || a.line - b.line);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const found = importProblems(process.argv[2] ?? ".");
  for (const p of found) console.log(`${p.file}:${p.line}: ${p.problem}`);
  process.exitCode = found.length === 0 ? 0 : 1;
}
