// Public face of core/agent: the agent's pure policy (version specs and the release index, the
// settings layers, server supervision and rollback, provisioning). Time is always injected.
export { createRollbackJudge, DEFAULT_PROBATION_MS, DEFAULT_MAX_CRASHES } from "./rollback-judge.js";
export type { ProbationRules, ProbationVerdict, RollbackJudge } from "./rollback-judge.js";
export { mergeAgentLayers, agentConfigAsLayer, AGENT_RANGES, NETWORK_RANGES } from "./agent-layers.js";
export type { AgentLayer, MergedAgentSettings } from "./agent-layers.js";
export { parseSemver, isSemver, compareSemver, compareVersionTexts } from "./semver.js";
export type { SemVer } from "./semver.js";
export { classifyVersionSpec, CHANNELS } from "./version-spec.js";
export { withVersionControl, type VersionControlKey } from "./version-control.js";
export type { Channel, ClassifiedVersionSpec } from "./version-spec.js";
export { resolveUrlReference } from "./resolve-url.js";
export { parseReleaseIndex, resolveRelease, RELEASE_PRODUCTS } from "./release-index.js";
export type { ReleaseArtifact, ReleaseIndex, ReleaseProduct, ReleaseResolution, ProductReleases, ParsedReleaseIndex } from "./release-index.js";
export { downloadHeldBack, nextDownloadFailure } from "./download-retry.js";
export type { DownloadFailureRecord, DownloadRetryRules } from "./download-retry.js";
export { initialProvisioningState, provisioningStep, provisioningDeadline, countsAsOnline } from "./provisioning.js";
export { createProvisioningMachine } from "./provisioning-machine.js";
export type { ProvisioningMachine, ProvisioningMachineOptions, ProvisioningEvent } from "./provisioning-machine.js";
export { provisioningSettings, orderNetworks } from "./provisioning-settings.js";
export type { ProvisioningSettingsOptions } from "./provisioning-settings.js";
export type {
  NetworkConnectivity, ProvisioningNetwork, HotspotSettings, ProvisioningSettings, ProvisioningPhase, ProvisioningState,
  ProvisioningInput, ProvisioningAction, ProvisioningStep,
} from "./provisioning-types.js";
