// The data manager (rdk:builtin:builtin, as Viam's configurations name it, and rdk:builtin:fake):
// svc captures no data yet, so there is never anything to upload and Sync succeeds at once. The
// attributes Viam's data manager reads are accepted, and checked, so a configuration written for
// it runs as it is.
import { formatResourceName, type ModelRegistration } from "../../resource/index.js";
import { BUILTIN_MODEL, DATA_MANAGER_API, FAKE_MODEL, failOnIssues, readAttributes, type AttributeReader } from "../../components/index.js";
import type { DataManager } from "./data-manager.js";

// Viam's configurations name the data manager's model "builtin" (a service's model when none is
// written, too).
const wholeFromZero = { integer: true, min: 0 };

// Viam's app writes "" for a capture folder left at its default, so an empty string is fine.
function text(a: AttributeReader, attributes: Record<string, unknown> | undefined, key: string): void {
  const given = attributes?.[key];
  if (given !== undefined && given !== null && typeof given !== "string") a.problem(key, "must be a string");
}

function stringList(a: AttributeReader, attributes: Record<string, unknown> | undefined, key: string): void {
  const given = attributes?.[key];
  if (given === undefined || given === null) return;
  if (!Array.isArray(given)) return a.problem(key, "must be a list of strings");
  given.forEach((item: unknown, i) => {
    if (typeof item !== "string") a.problem(`${key}[${i}]`, "must be a string");
  });
}

/** Checks the attributes Viam's data manager reads; the others are left to whoever reads them. */
export function checkDataManagerAttributes(attributes: Record<string, unknown> | undefined, path: string): AttributeReader {
  const a = readAttributes(attributes, path);
  text(a, attributes, "capture_dir");
  text(a, attributes, "selective_syncer_name");
  a.boolean("capture_disabled", false);
  a.boolean("sync_disabled", false);
  a.number("sync_interval_mins", { min: 0 });
  a.number("maximum_num_sync_threads", wholeFromZero);
  a.number("file_last_modified_millis", wholeFromZero);
  a.number("maximum_capture_file_size_bytes", wholeFromZero);
  a.number("delete_every_nth_when_disk_full", wholeFromZero);
  a.number("disk_usage_deletion_threshold", { min: 0 });
  a.number("capture_dir_deletion_threshold", { min: 0 });
  stringList(a, attributes, "tags");
  stringList(a, attributes, "additional_sync_paths");
  return a;
}

const attributesSchema = {
  type: "object",
  description: "Viam's data manager attributes, accepted and checked; svc captures and syncs no data",
  properties: {
    capture_dir: { type: "string" },
    tags: { type: "array", items: { type: "string" } },
    capture_disabled: { type: "boolean" },
    sync_disabled: { type: "boolean" },
    sync_interval_mins: { type: "number", minimum: 0 },
    additional_sync_paths: { type: "array", items: { type: "string" } },
    maximum_num_sync_threads: { type: "integer", minimum: 0 },
  },
  additionalProperties: true,
};

function dataManagerModel(model: string): ModelRegistration<DataManager> {
  return {
    api: DATA_MANAGER_API,
    model,
    attributesSchema,
    validate(config, path) {
      return { issues: checkDataManagerAttributes(config.attributes, path).issues };
    },
    async build(ctx) {
      failOnIssues(checkDataManagerAttributes(ctx.config.attributes, formatResourceName(ctx.name)).issues);
      ctx.logger.info("svc captures no data yet: this data manager has nothing to sync, and Sync answers at once");
      return {
        name: ctx.name,
        async sync() {},
        async doCommand(command) {
          return command;
        },
        async close() {},
      };
    },
  };
}

export const builtinDataManagerModel = dataManagerModel(BUILTIN_MODEL);
export const fakeDataManagerModel = dataManagerModel(FAKE_MODEL);
