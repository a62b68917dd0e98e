// The parsed source files of a TypeScript project (its tsconfig.json), through the compiler's
// own API (the `typescript` package), for the checks in this folder.
import { relative, resolve, sep } from "node:path";
import { API } from "typescript/unstable/sync";

/**
 * Calls `visit(file, source)` for each source file of the project at `projectDir` outside
 * node_modules, `file` being its path relative to the project with "/" separators; returns what
 * the visits returned, flattened.
 */
export function mapProjectSources(projectDir, visit) {
  const root = resolve(projectDir);
  const api = new API({ cwd: root });
  try {
    const project = api.updateSnapshot({ openProject: `${root}/tsconfig.json` }).getProjects()[0];
    const found = [];
    for (const fileName of project.program.getSourceFileNames()) {
      const file = relative(root, fileName).split(sep).join("/");
      if (file.startsWith("..") || file.includes("node_modules/")) continue;
      const source = project.program.getSourceFile(fileName);
      if (source === undefined || source.isDeclarationFile) continue;
      found.push(...visit(file, source));
    }
    return found;
  } finally {
    api.close();
  }
}
