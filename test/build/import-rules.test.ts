// Dependencies point one way: no import cycle between files or between folders, core/ imports
// nothing outside itself but generated protobuf code and hal/io.ts, hal/ imports no target and
// no target imports another. The check fails the suite naming the file, the line and the way
// round a cycle or the forbidden import.
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { scratchProjects } from "../helpers/scratch-project.js";
import { importProblems } from "../../tools/check/import-rules.mjs";

const repo = join(import.meta.dirname, "..", "..");
const project = scratchProjects("import-rules", { types: [], module: "nodenext" });

describe("the import rules check", () => {
  it("names a cycle between files, the whole way round", () => {
    const dir = project({
      "tools/kit/a.ts": `import { b } from "./b.js";\nexport const a = () => b;\n`,
      "tools/kit/b.ts": `import { c } from "./c.js";\nexport const b = () => c;\n`,
      "tools/kit/c.ts": `import { a } from "./a.js";\nexport const c = () => a;\n`,
    });
    expect(importProblems(dir)).toEqual([
      { file: "tools/kit/a.ts", line: 1, problem: "import cycle between files: tools/kit/a.ts -> tools/kit/b.ts -> tools/kit/c.ts -> tools/kit/a.ts" },
    ]);
  });

  it("names a cycle between folders and the imports that close it", () => {
    const dir = project({
      "core/config/sections.ts": `\nimport { pattern } from "../logging/pattern.js";\nexport const sections = pattern;\n`,
      "core/config/index.ts": `export const level = "info";\n`,
      "core/logging/pattern.ts": `export const pattern = "*";\n`,
      "core/logging/levels.ts": `import { level } from "../config/index.js";\nexport const levels = [level];\n`,
    });
    expect(importProblems(dir)).toEqual([
      {
        file: "core/config/sections.ts",
        line: 2,
        problem:
          "import cycle between folders: core/config -> core/logging -> core/config (core/config/sections.ts imports core/logging/pattern.ts; core/logging/levels.ts imports core/config/index.ts)",
      },
    ]);
  });

  it("refuses core/ importing a target, a HAL backend or a package, but not hal/io.ts, generated code or protobuf types", () => {
    const dir = project({
      "core/rpc/served.ts": [
        `import type { DescService } from "@bufbuild/protobuf";`,
        `import type { IOProvider } from "../../hal/io.js";`,
        `import { SensorService } from "../../proto/gen/sensor_pb.js";`,
        `import { board } from "../../hal/sim/board.js";`,
        `import { serve } from "../../targets/linux/serve.js";`,
        `import { create } from "@bufbuild/protobuf";`,
        `export const all = [board, serve, create, SensorService] as unknown as [DescService, IOProvider];`,
      ].join("\n"),
      "hal/io.ts": `export interface IOProvider { name: string }\n`,
      "hal/sim/board.ts": `export const board = 1;\n`,
      "proto/gen/sensor_pb.ts": `export const SensorService = {};\n`,
      "targets/linux/serve.ts": `export const serve = 2;\n`,
    });
    expect(importProblems(dir).map((p) => `${p.file}:${p.line} ${p.problem}`)).toEqual([
      "core/rpc/served.ts:4 core/ imports hal/sim/board.ts; it may import only core/, proto/gen/ and hal/io.ts",
      "core/rpc/served.ts:5 core/ imports targets/linux/serve.ts; it may import only core/, proto/gen/ and hal/io.ts",
      "core/rpc/served.ts:6 core/ imports the package @bufbuild/protobuf at run time; it may import only core/, proto/gen/ and hal/io.ts (and protobuf-es types)",
    ]);
  });

  it("refuses hal/ importing a target and one target importing another", () => {
    const dir = project({
      "hal/sim/board.ts": `import { pins } from "../../targets/mcu/pins.js";\nexport const board = pins;\n`,
      "targets/mcu/pins.ts": `export const pins = 3;\n`,
      "targets/linux/server/serve.ts": `import { pins } from "../../mcu/pins.js";\nexport const serve = pins;\n`,
    });
    expect(importProblems(dir).map((p) => `${p.file}:${p.line} ${p.problem}`)).toEqual([
      "hal/sim/board.ts:1 hal/ imports targets/mcu/pins.ts; the HAL serves every target and imports none",
      "targets/linux/server/serve.ts:1 targets/linux imports targets/mcu/pins.ts; one target never imports another",
    ]);
  });

  it("keeps node/ for the targets that run on Node, and importing none of them", () => {
    const dir = project({
      "node/rpc/handler.ts": `import { serve } from "../../targets/linux/serve.js";\nexport const handler = serve;\n`,
      "targets/linux/serve.ts": `export const serve = 2;\n`,
      "targets/cloud/api.ts": `import { handler } from "../../node/rpc/handler.js";\nexport const api = handler;\n`,
      "targets/mcu/main.ts": `import { handler } from "../../node/rpc/handler.js";\nexport const main = handler;\n`,
    });
    expect(importProblems(dir).map((p) => `${p.file}:${p.line} ${p.problem}`)).toEqual([
      "node/rpc/handler.ts:1 node/ imports targets/linux/serve.ts; what the Node programs share imports none of them",
      "targets/mcu/main.ts:1 targets/mcu imports node/rpc/handler.ts; node/ is for the targets that run on Node",
    ]);
  });

  it("finds no import cycle and no forbidden import in svc", () => {
    expect(importProblems(repo).map((p) => `${p.file}:${p.line} ${p.problem}`)).toEqual([]);
  });
});
