// Time read or waited for behind the Clock's back. The agent and the module supervisor run on the
// core's Clock (a test speeds the agent's up, or steps it by hand), so a `Date.now()`, `new
// Date()`, `performance.now()` or a bare timer there is time the clock does not see. The one Node
// clock adapter (targets/linux/logging/node-clock.ts) is where the Clock meets Node's own.
//
//   node tools/check/clock-use.mjs [project-dir]
import { SyntaxKind } from "typescript/unstable/ast";
import { mapProjectSources } from "./project-sources.mjs";

/** Folders whose time goes through a Clock. */
export const CLOCKED_FOLDERS = ["targets/linux/agent", "targets/linux/modules", "targets/cloud/api", "targets/cloud/auth", "targets/cloud/commands", "targets/cloud/fleet", "targets/cloud/storage"];

const TIMER_FUNCTIONS = new Set(["setTimeout", "setInterval", "setImmediate", "clearTimeout", "clearInterval", "clearImmediate"]);

/** Each use of time outside a Clock in `folders`: `{ file, line, use }`. */
export function unclockedTimeUses(projectDir, folders = CLOCKED_FOLDERS) {
  return mapProjectSources(projectDir, (file, source) => (folders.some((folder) => file.startsWith(`${folder}/`)) ? timeUses(source).map((use) => ({ file, ...use })) : []));
}

/** The uses of wall time and Node's timers in one parsed file. */
export function timeUses(source) {
  const found = [];
  const at = (node, use) => found.push({ line: source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1, use });
  const visit = (node) => {
    if (node.kind === SyntaxKind.CallExpression) {
      const callee = unwrap(node.expression);
      if (callee.kind === SyntaxKind.Identifier && TIMER_FUNCTIONS.has(callee.text)) at(node, callee.text);
      const global = globalMember(callee);
      if (global !== undefined) at(node, global);
    } else if (node.kind === SyntaxKind.NewExpression && unwrap(node.expression).kind === SyntaxKind.Identifier && unwrap(node.expression).text === "Date") {
      if ((node.arguments?.length ?? 0) === 0) at(node, "new Date()");
    } else if (node.kind === SyntaxKind.PropertyAccessExpression && node.parent?.kind !== SyntaxKind.CallExpression) {
      // `Date.now` handed on as a function is a read of wall time all the same.
      const global = globalMember(node);
      if (global !== undefined && node.parent?.expression !== node) at(node, global);
    }
    node.forEachChild(visit);
  };
  visit(source);
  return found;
}

function unwrap(node) {
  while (node.kind === SyntaxKind.ParenthesizedExpression) node = node.expression;
  return node;
}

/** "Date.now", "performance.now", or a timer reached through globalThis; undefined otherwise. */
function globalMember(node) {
  if (node.kind !== SyntaxKind.PropertyAccessExpression) return undefined;
  const object = unwrap(node.expression);
  const member = node.name.text;
  if (object.kind !== SyntaxKind.Identifier) return undefined;
  if ((object.text === "Date" || object.text === "performance") && member === "now") return `${object.text}.now`;
  if ((object.text === "globalThis" || object.text === "global") && TIMER_FUNCTIONS.has(member)) return `${object.text}.${member}`;
  return undefined;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const found = unclockedTimeUses(process.argv[2] ?? ".");
  for (const f of found) console.log(`${f.file}:${f.line} ${f.use}: time outside the Clock`);
  process.exitCode = found.length === 0 ? 0 : 1;
}
