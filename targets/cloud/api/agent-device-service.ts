// `viam.app.agent.v1.AgentDeviceService.DeviceAgentConfig`: what svc-agent asks svc-cloud for. The
// answer is the part's effective config's `agent` section (advanced, network, additional networks
// and system settings, passed on as they are) and, for svc-agent and svc-server, the update to
// install: the part's `agent.version_control` ("stable", "dev", a version or a URL; "stable" when
// unset) resolved against svc-cloud's release index for the platform the agent reports. A spec the
// index cannot satisfy (no such version, no artifact for the platform) answers no update, and the
// agent keeps what it runs. The versions the agent reports are recorded for the machine summaries.
import type { JsonObject } from "@bufbuild/protobuf";
import { durationFromMs } from "@bufbuild/protobuf/wkt";
import type { ServiceImpl } from "@connectrpc/connect";
import { Code, SvcError } from "../../../core/index.js";
import { resolveRelease, type ReleaseIndex, type ReleaseProduct } from "../../../core/agent/index.js";
import { PackageFormat, type AgentDeviceService, type DeviceAgentConfigRequest, type UpdateInfoSchema } from "../../../proto/gen/app/agent/v1/agent_pb.js";
import type { MessageInitShape } from "@bufbuild/protobuf";
import { requireDevicePart } from "../auth/access.js";
import { effectiveConfig } from "../fleet/effective-config.js";
import { callerOf } from "../server/caller.js";
import type { CloudContext } from "../server/cloud-context.js";
import { releaseIndexOf } from "../storage/releases-store.js";
import { recordReportedVersions, type ReportedVersions } from "../storage/reported-versions.js";
import { RELEASES_PATH } from "./releases-service.js";

/** How long the agent waits before asking again. */
export const AGENT_CHECK_INTERVAL_MS = 5 * 60_000;
const MAX_REPORTED = 128;
const MAX_TAGS = 32;

const isObject = (value: unknown): value is JsonObject => typeof value === "object" && value !== null && !Array.isArray(value);
const section = (agent: JsonObject, name: string): JsonObject => (isObject(agent[name]) ? (agent[name] as JsonObject) : {});

export function agentDeviceService(cloud: CloudContext): Partial<ServiceImpl<typeof AgentDeviceService>> {
  const db = cloud.store.db;
  return {
    async deviceAgentConfig(request, context) {
      const part = await requireDevicePart(db, callerOf(context), request.id);
      const reported = reportedOf(request, cloud.clock.now());
      const { config } = await effectiveConfig(db, part.id);
      await recordReportedVersions(db, part.id, reported);
      const agent = isObject(config.agent) ? (config.agent as JsonObject) : {};
      const versionControl = section(agent, "version_control");
      const index = await releaseIndexOf(db, `${cloud.publicUrl}${RELEASES_PATH.replace(/\/$/, "")}`);
      const platform = reported.platform ?? "";
      return {
        checkInterval: durationFromMs(AGENT_CHECK_INTERVAL_MS),
        agentUpdateInfo: updateInfo(index, "agent", versionControl.agent, platform),
        viamServerUpdateInfo: updateInfo(index, "svc-server", versionControl["svc-server"], platform),
        advancedSettings: section(agent, "advanced_settings"),
        networkConfiguration: section(agent, "network_configuration"),
        additionalNetworks: section(agent, "additional_networks"),
        systemConfiguration: section(agent, "system_configuration"),
      };
    },
  };
}

type UpdateInit = MessageInitShape<typeof UpdateInfoSchema>;

/** The update `spec` stands for on `platform`, or undefined when the index has none for it. */
function updateInfo(index: ReleaseIndex, product: ReleaseProduct, spec: unknown, platform: string): UpdateInit | undefined {
  const resolved = resolveRelease(index, product, typeof spec === "string" ? spec : "stable", platform, new Set());
  if (!resolved.ok) return undefined;
  const { artifact } = resolved;
  return {
    filename: decodeURIComponent(new URL(artifact.url).pathname.split("/").at(-1) ?? ""),
    url: artifact.url,
    version: resolved.version,
    sha256: artifact.sha256 === undefined ? new Uint8Array() : Uint8Array.from(Buffer.from(artifact.sha256, "hex")),
    format: PackageFormat.UNSPECIFIED,
  };
}

function bounded(value: string, where: string): string {
  if (value.length > MAX_REPORTED) throw new SvcError(Code.InvalidArgument, `${where}: at most ${MAX_REPORTED} characters`);
  return value;
}

/** What the agent says it runs; the deprecated subsystem_versions map stands in for an absent version_info. */
function reportedOf(request: DeviceAgentConfigRequest, now: number): ReportedVersions {
  const info = request.versionInfo;
  const legacy = request.subsystemVersions;
  const tags = request.hostInfo?.tags ?? [];
  if (tags.length > MAX_TAGS) throw new SvcError(Code.InvalidArgument, `host_info.tags: at most ${MAX_TAGS}`);
  return {
    server: bounded(info?.viamServerRunning || legacy["svc-server"] || legacy["viam-server"] || "", "version_info.viam_server_running"),
    agent: bounded(info?.agentRunning || legacy["agent"] || legacy["viam-agent"] || "", "version_info.agent_running"),
    server_installed: bounded(info?.viamServerInstalled ?? "", "version_info.viam_server_installed"),
    agent_installed: bounded(info?.agentInstalled ?? "", "version_info.agent_installed"),
    os: bounded(request.hostInfo?.distro ?? "", "host_info.distro"),
    platform: bounded(request.hostInfo?.platform ?? "", "host_info.platform"),
    tags: tags.map((t, i) => bounded(t, `host_info.tags[${i}]`)),
    reported_at: now,
  };
}
