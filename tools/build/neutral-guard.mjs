// An esbuild plugin for bundles that must run outside Node (XS on microcontrollers):
// any import of a Node builtin fails the build, naming the import and who imported it.
// Bare names of npm polyfills (`events`, `buffer`, ...) are refused too, since they exist to
// smuggle Node APIs into other platforms.
import { builtinModules } from "node:module";

const names = new Set(builtinModules.map((m) => m.replace(/^node:/, "")));

export function nodeBuiltinGuard() {
  return {
    name: "node-builtin-guard",
    setup(build) {
      build.onResolve({ filter: /.*/ }, (args) => {
        if (args.kind === "entry-point") return undefined;
        const bare = args.path.replace(/^node:/, "");
        const root = bare.split("/")[0];
        if (args.path.startsWith("node:") || names.has(bare) || names.has(root)) {
          return {
            errors: [{
              text: `the MCU bundle must not use Node: "${args.path}" imported by ${args.importer || "?"}`,
            }],
          };
        }
        return undefined;
      });
    },
  };
}

/** The esbuild options every bundle that runs in XS is built with: neutral, ES2020, minified, guarded. */
export function neutralBundleOptions(root) {
  return {
    absWorkingDir: root,
    bundle: true,
    platform: "neutral",
    mainFields: ["module", "main"],
    target: "es2020",
    format: "esm",
    minify: true,
    legalComments: "none",
    plugins: [nodeBuiltinGuard()],
  };
}
