// Regular expressions a device cannot use. The MCU bundle is preloaded into flash, and what its
// modules make while they load is frozen there, regular expressions included: one with the g or
// y flag held at module level throws "lastIndex: not writable" the first time exec, test, match,
// replace, replaceAll or search sets its lastIndex, on a device only. matchAll and split work on
// a copy, so they are the two ways such an expression may be used; it may not leave its module.
//
//   node tools/check/held-regexps.mjs [project-dir]
import { SyntaxKind } from "typescript/unstable/ast";
import { mapProjectSources } from "./project-sources.mjs";

/** Folders the MCU bundle is made of. */
export const PRELOADED_FOLDERS = ["core", "hal", "targets/mcu"];

const COPYING_METHODS = new Set(["matchAll", "split"]);

/** Each unsafe use of a module-level g or y expression in `folders`: `{ file, line, name, use }`. */
export function heldRegExpUses(projectDir, folders = PRELOADED_FOLDERS) {
  return mapProjectSources(projectDir, (file, source) => (folders.some((folder) => file.startsWith(`${folder}/`)) ? unsafeUses(source).map((use) => ({ file, ...use })) : []));
}

/** The module-level g or y expressions of one parsed file, and their uses that set lastIndex. */
export function unsafeUses(source) {
  const held = new Map();
  const found = [];
  const lineOf = (node) => source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1;
  for (const statement of source.statements) {
    if (statement.kind !== SyntaxKind.VariableStatement) continue;
    const exported = (statement.modifiers ?? []).some((m) => m.kind === SyntaxKind.ExportKeyword);
    for (const declaration of statement.declarationList.declarations) {
      const init = declaration.initializer;
      if (!init || init.kind !== SyntaxKind.RegularExpressionLiteral || declaration.name.kind !== SyntaxKind.Identifier) continue;
      if (!/[gy]/.test(init.text.slice(init.text.lastIndexOf("/") + 1))) continue;
      held.set(declaration.name.text, declaration.name);
      if (exported) found.push({ line: lineOf(declaration), name: declaration.name.text, use: "exported" });
    }
  }
  if (held.size === 0) return found;
  const visit = (node) => {
    if (node.kind === SyntaxKind.Identifier && held.has(node.text) && held.get(node.text) !== node && !copied(node)) {
      found.push({ line: lineOf(node), name: node.text, use: useOf(node) });
    }
    node.forEachChild(visit);
  };
  visit(source);
  return found;
}

/** Whether `node` is the expression handed to `.matchAll(...)` or `.split(...)`. */
function copied(node) {
  const call = node.parent;
  if (call?.kind !== SyntaxKind.CallExpression || call.arguments[0] !== node) return false;
  const callee = call.expression;
  return callee.kind === SyntaxKind.PropertyAccessExpression && COPYING_METHODS.has(callee.name.text);
}

/** How the expression is used, in a reader's words: ".test()", "an argument of .replace()". */
function useOf(node) {
  const parent = node.parent;
  if (parent?.kind === SyntaxKind.PropertyAccessExpression && parent.expression === node) return `.${parent.name.text}`;
  if (parent?.kind === SyntaxKind.CallExpression && parent.expression.kind === SyntaxKind.PropertyAccessExpression) return `an argument of .${parent.expression.name.text}()`;
  return "handed on";
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const found = heldRegExpUses(process.argv[2] ?? ".");
  for (const f of found) console.log(`${f.file}:${f.line} ${f.name} (${f.use}): a g or y expression held at module level sets lastIndex, which a device holds read-only`);
  process.exitCode = found.length === 0 ? 0 : 1;
}
