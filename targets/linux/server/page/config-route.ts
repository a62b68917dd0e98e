// `GET /page/api/config`: the configuration the machine runs, where it comes from and whether the
// page may edit it; `PUT /page/api/config` with `{ "text": ... }`: a new text for the machine's
// configuration file. Only a machine run from a local file takes one (svc-cloud's and the
// built-in machine's are read-only here). A text is judged as the machine would judge the file
// before anything is written; one with errors is refused with each problem at its path, and the
// file and the machine stay as they were. A good one is written atomically, the text it replaces
// kept as the last good one, and the machine, which follows its file, applies it.
import { readFile } from "node:fs/promises";
import { errorMessage, MAX_CONFIG_CHARACTERS, type Machine, type MachineConfig } from "../../../../core/index.js";
import type { HttpRoute } from "../transport/index.js";
import { checkConfigText } from "./config-check.js";
import { LAST_GOOD_SUFFIX, writeConfigFile } from "./config-file-write.js";
import type { PageGuard } from "./page-guard.js";
import { answerRefusal, PageRefusal, readBoundedText, sendJson } from "./page-http.js";

/** Where the machine's configuration comes from. */
export interface PageConfigSource {
  kind: "file" | "cloud" | "builtin";
  /** The file's path, or words naming the source. */
  label: string;
  /** The file the machine follows, for kind "file". */
  file?: string;
}

/** The largest body a save takes: the largest configuration the core reads, and its wrapping. */
export const MAX_CONFIG_WRITE_BYTES = MAX_CONFIG_CHARACTERS + 1024;

export function configRoutes(machine: Machine, source: PageConfigSource, guard: PageGuard): HttpRoute[] {
  return [
    {
      method: "GET",
      path: "/page/api/config",
      handler: async (req, res) => {
        try {
          await guard.read(req);
        } catch (thrown) {
          return answerRefusal(res, thrown);
        }
        sendJson(res, 200, await describeConfig(machine, source));
      },
    },
    {
      method: "PUT",
      path: "/page/api/config",
      handler: async (req, res) => {
        try {
          await guard.change(req);
          const text = textOf(await readBoundedText(req, MAX_CONFIG_WRITE_BYTES));
          sendJson(res, 200, await save(machine, source, text));
        } catch (thrown) {
          answerRefusal(res, thrown);
        }
      },
    },
  ];
}

async function describeConfig(machine: Machine, source: PageConfigSource) {
  const running = machine.current();
  const refusal = machine.lastRefusal();
  const text = source.file !== undefined ? await readFile(source.file, "utf8").catch(() => "") : JSON.stringify(withoutSecret(running?.config), null, 2);
  return {
    source: { kind: source.kind, label: source.label },
    editable: source.kind === "file",
    text,
    revision: running?.revision ?? "",
    refusal: refusal && { reason: refusal.reason, issues: refusal.issues },
    remotes: (running?.config.remotes ?? []).map((r) => r.name),
    modules: (running?.config.modules ?? []).map((m) => m.name),
  };
}

/** The cloud section's credentials (its secret, its API key) stay on the machine. */
function withoutSecret(config: MachineConfig | undefined): unknown {
  if (!config?.cloud) return config ?? {};
  const { secret, api_key: key, ...cloud } = config.cloud;
  const kept = "(kept on the machine)";
  return { ...config, cloud: { ...cloud, ...(secret === undefined ? {} : { secret: kept }), ...(key ? { api_key: { id: key.id, key: kept } } : {}) } };
}

function textOf(body: string): string {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch (thrown) {
    throw new PageRefusal(400, `the request body is not JSON: ${errorMessage(thrown)}`);
  }
  const text = (parsed as { text?: unknown } | null)?.text;
  if (typeof text !== "string") throw new PageRefusal(400, `send { "text": "<the configuration as JSON text>" }`);
  return text;
}

async function save(machine: Machine, source: PageConfigSource, text: string) {
  if (source.kind !== "file" || source.file === undefined) {
    const why =
      source.kind === "cloud"
        ? "this machine's configuration comes from svc-cloud: edit it there"
        : "this is the built-in simulated machine: start svc-server with -config FILE to edit a configuration here";
    throw new PageRefusal(409, why);
  }
  const issues = checkConfigText(source.file, text);
  const errors = issues.filter((i) => i.severity === "error");
  if (errors.length > 0) {
    const first = errors[0]!;
    const where = first.path === "" ? "" : `${first.path}: `;
    const rest = errors.length > 1 ? ` (and ${errors.length - 1} more)` : "";
    throw new PageRefusal(422, `nothing was saved: ${where}${first.message}${rest}`, { issues });
  }
  await writeConfigFile({ file: source.file, text, currentIsGood: machine.lastRefusal() === undefined && machine.current() !== undefined });
  return { saved: true, file: source.file, lastGood: `${source.file}${LAST_GOOD_SUFFIX}`, issues };
}
