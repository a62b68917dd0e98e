// Public face of svc-server's FTDC: the recorder and its sources, its files, the default folder
// and the `svc-server ftdc` command that reads them back.
export { createFtdcRecorder, type FtdcRecorder, type FtdcRecorderOptions, type RecentReading } from "./ftdc-recorder.js";
export { createFtdcFiles, FTDC_FILE_PATTERN, type FtdcFiles, type FtdcFilesOptions } from "./ftdc-files.js";
export type { FtdcSource } from "./ftdc-source.js";
export { processMetrics } from "./process-metrics.js";
export { apiMetrics } from "./api-metrics.js";
export { graphMetrics } from "./graph-metrics.js";
export { cpuTicks, moduleMetrics, rssBytes, type ModuleMetrics } from "./module-metrics.js";
export { defaultFtdcDir } from "./ftdc-dir.js";
export { serverDiagnostics, type ServerDiagnostics, type ServerDiagnosticsOptions } from "./server-diagnostics.js";
export { runFtdcCommand, type CommandIo } from "./ftdc-command.js";
