// The reference parts of the manual say what the programs are: the option tables of
// docs/server.md and docs/agent.md list exactly the options `-help` lists (and the agent's
// variables), docs/configuration.md names every key of the configuration's schema, and
// docs/hardware.md every built-in model of the build with every attribute it takes.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { repositoryRoot } from "../helpers/guide.js";
import { runCli } from "../helpers/run-cli.js";

const read = (file: string) => readFileSync(join(repositoryRoot, file), "utf8");
const work = mkdtempSync(join(tmpdir(), "svc-doc-reference-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** The words of every code span of a Markdown text: what the text names as code. */
function codeWords(text: string): Set<string> {
  const spans = [...text.replace(/```[\s\S]*?```/g, "").matchAll(/`([^`]+)`/g)].map((m) => m[1]!);
  // "agent.version_control" names both itself and its parts; "analogs:" names "analogs".
  const words = spans.flatMap((span) => span.split(/[^\w.:/-]+/)).map((word) => word.replace(/[.:]+$/, ""));
  return new Set(words.flatMap((word) => [word, ...word.split(".")]).filter(Boolean));
}

/** Option names (without dashes) in the first column of a page's option table. */
function tableOptions(text: string): Set<string> {
  const rows = text.split("\n").filter((line) => /^\| `-/.test(line));
  const first = rows.map((row) => row.split("|")[1]!);
  return new Set(first.flatMap((cell) => [...cell.matchAll(/`(-[^`]*)`/g)].flatMap((m) => [...m[1]!.matchAll(/(?:^|[ ,])--?([\w-]+)/g)].map((o) => o[1]!))));
}

/** Option names (without dashes) that `-help` lists. */
function helpOptions(help: string): Set<string> {
  const lines = help.split("\n").filter((line) => /^ {2}-/.test(line));
  return new Set(lines.flatMap((line) => [...line.trim().replace(/\s{2,}.*$/, "").matchAll(/(?:^|[ ,])--?([\w-]+)/g)].map((m) => m[1]!)));
}

describe("the option tables", () => {
  it.each([
    ["svc-server", "docs/server.md", "-help"],
    ["svc-agent", "docs/agent.md", "--help"],
  ] as const)("%s: %s lists exactly the options -help lists", (program, page, flag) => {
    const help = runCli(program, [flag]);
    expect(help.code).toBe(0);
    expect([...tableOptions(read(page))].sort()).toEqual([...helpOptions(help.stdout)].sort());
  });

  it("svc-agent: docs/agent.md names every variable -help lists", () => {
    const variables = runCli("svc-agent", ["--help"]).stdout.match(/SVC_AGENT_[A-Z_]+/g) ?? [];
    const named = codeWords(read("docs/agent.md"));
    expect(variables.length).toBeGreaterThan(0);
    expect(variables.filter((v) => ![...named].some((word) => word.startsWith(v)))).toEqual([]);
  });
});

describe("docs/configuration.md", () => {
  it("names every key of the configuration's schema", () => {
    const schema = JSON.parse(read("core/config/schema.json")) as { definitions: Record<string, { properties?: Record<string, unknown> }> };
    const keys = new Set(Object.values(schema.definitions).flatMap((d) => Object.keys(d.properties ?? {})));
    const named = codeWords(read("docs/configuration.md"));
    expect(keys.size).toBeGreaterThan(50);
    expect([...keys].filter((key) => !named.has(key))).toEqual([]);
  });
});

describe("docs/hardware.md", () => {
  it("names every built-in model and every attribute it takes", () => {
    const file = join(work, "resources.json");
    expect(runCli("svc-server", ["-dump-resources", file]).code).toBe(0);
    const registrations = JSON.parse(readFileSync(file, "utf8")) as Array<{
      api: string;
      model: string;
      attributes_schema: { properties?: Record<string, unknown> };
    }>;
    const page = read("docs/hardware.md");
    const named = codeWords(page);
    const missing = registrations.flatMap(({ api, model, attributes_schema }) => {
      const short = model.split(":").pop()!;
      const type = api.split(":").pop()!;
      const row = page.split("\n").some((line) => line.includes(`| ${type}`) && line.includes(`| ${short} |`));
      return [
        ...(row || named.has(short) ? [] : [`${api} ${model}`]),
        ...Object.keys(attributes_schema.properties ?? {}).filter((a) => !named.has(a)).map((a) => `${model}: ${a}`),
      ];
    });
    expect(registrations.length).toBeGreaterThan(10);
    expect(missing).toEqual([]);
  });
});
