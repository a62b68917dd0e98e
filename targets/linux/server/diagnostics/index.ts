// Public face of the server's diagnostics: -dump-resources, -cpuprofile, -webprofile,
// -output-telemetry and -network-check, and the call counter they and FTDC share.
export { DiagnosticsError } from "./diagnostics-error.js";
export { dumpResources, resourceDump, type ResourceDumpEntry } from "./dump-resources.js";
export { startCpuProfile, startCpuProfileFile, type CpuProfileFile, type RunningCpuProfile } from "./cpu-profile.js";
export { takeHeapSnapshot } from "./heap-snapshot.js";
export { memoryAfterGc, type MemoryAfterGc } from "./memory-after-gc.js";
export { watchGc, type GcTotals, type GcWatch } from "./gc-totals.js";
export { webProfileRoutes, type WebProfileOptions } from "./web-profile.js";
export { createCallCounter, type CallCounter, type CallCounterOptions, type CallListener, type MethodCalls } from "./call-counter.js";
export { createTelemetry, type SpanAttributes, type Telemetry, type TelemetryOptions } from "./telemetry.js";
export { reconfigureSpans } from "./reconfigure-spans.js";
export { createLatencyHistogram, type LatencyHistogram, type LatencySummary } from "./latency-histogram.js";
export {
  formatNetworkChecks,
  parseAppAddress,
  runNetworkChecks,
  type CheckOutcome,
  type NetworkCheck,
  type NetworkCheckOptions,
  type NetworkCheckResult,
} from "./network-check.js";
