// A part's config as Viam's RobotConfig: what `RobotService.Config` answers. svc's JSON and
// Viam's proto differ in places plain `fromJson` cannot bridge (durations written "1m", a
// module's `executable_path` that the proto calls `path`, an orientation as `{type, value}`
// instead of a oneof, the maintenance sensor as text instead of a ResourceName); the tables in
// robot-config-tables.ts map each key. `cloud` and `revision` are svc-cloud's own: whatever the
// stored config says there is replaced.
import { create, fromJson, toBinary, type JsonObject } from "@bufbuild/protobuf";
import { withEncoding } from "../../../node/rpc/encoded-answer.js";
import { CloudConfigSchema, ConfigResponseSchema, RobotConfigSchema, type ConfigResponse, type RobotConfig } from "../../../proto/gen/app/v1/robot_pb.js";
import { delimitedSize, writeDelimitedHead } from "../storage/wire-writer.js";
import { mapObject, notServable, type Json } from "./proto-json-mapping.js";
import { machineTable } from "./robot-config-tables.js";

/** What svc-cloud puts in `cloud`: who the part is and its names. Never a secret. */
export interface PartCloud {
  id: string;
  fqdn: string;
  local_fqdn: string;
  location_id: string;
  primary_org_id: string;
  machine_id: string;
}

export interface ServedConfig {
  config: RobotConfig;
  /** Paths of the keys that have no field in RobotConfig and so were not served. */
  leftOut: string[];
}

export function toRobotConfig(stored: Json, cloud: PartCloud, revision: string): ServedConfig {
  const served = toPartlessConfig(stored);
  return { config: forPart(served.config, cloud, revision), leftOut: served.leftOut };
}

/** The same without `cloud` and `revision`: what parts with the same config and fragments share. */
export function toPartlessConfig(stored: Json): ServedConfig {
  const { cloud: _own, revision: _stored, ...rest } = stored;
  const walk = { leftOut: [] as string[] };
  const json = mapObject(rest, "", machineTable, walk);
  try {
    return { config: fromJson(RobotConfigSchema, json as JsonObject), leftOut: walk.leftOut };
  } catch (thrown) {
    throw notServable("config", (thrown as Error).message);
  }
}

/** A partless config given one part's `cloud` and `revision`; the shared one is left as it was. */
export function forPart(partless: RobotConfig, cloud: PartCloud, revision: string): RobotConfig {
  return { ...partless, ...partFields(cloud, revision) };
}

/**
 * The part's answer to `Config`, with its encoding: the shared config's bytes (`partlessBytes`,
 * encoded once) followed by the part's own two fields. A message's fields may come in any order
 * and the partless config sets neither, so the bytes are exactly the whole answer's encoding.
 * They are written into one buffer of the right size: a general writer growing its buffer cost
 * more than the rest of the call.
 */
export function configAnswer(partless: RobotConfig, partlessBytes: Uint8Array, cloud: PartCloud, revision: string): ConfigResponse {
  const own = partFields(cloud, revision);
  const cloudBytes = toBinary(CloudConfigSchema, own.cloud!);
  const revisionBytes = Buffer.from(revision, "utf8");
  const configSize = partlessBytes.length + delimitedSize(CLOUD_FIELD, cloudBytes.length) + delimitedSize(REVISION_FIELD, revisionBytes.length);
  const bytes = new Uint8Array(delimitedSize(CONFIG_FIELD, configSize));
  let at = writeDelimitedHead(bytes, 0, CONFIG_FIELD, configSize);
  bytes.set(partlessBytes, at);
  at = writeDelimitedHead(bytes, at + partlessBytes.length, CLOUD_FIELD, cloudBytes.length);
  bytes.set(cloudBytes, at);
  at = writeDelimitedHead(bytes, at + cloudBytes.length, REVISION_FIELD, revisionBytes.length);
  bytes.set(revisionBytes, at);
  const answer: ConfigResponse = { $typeName: ConfigResponseSchema.typeName, config: { ...partless, ...own } };
  return withEncoding(answer, bytes);
}

const CONFIG_FIELD = ConfigResponseSchema.field.config!.number;
const CLOUD_FIELD = RobotConfigSchema.field.cloud!.number;
const REVISION_FIELD = RobotConfigSchema.field.revision!.number;

function partFields(cloud: PartCloud, revision: string): Pick<RobotConfig, "cloud" | "revision"> {
  const part = create(CloudConfigSchema, {
    id: cloud.id,
    fqdn: cloud.fqdn,
    localFqdn: cloud.local_fqdn,
    locationId: cloud.location_id,
    primaryOrgId: cloud.primary_org_id,
    machineId: cloud.machine_id,
  });
  return { cloud: part, revision };
}
