// Public face of the machine's own control page: its routes on the API port.
export { pageRoutes, type PageRoutesOptions } from "./page-routes.js";
export type { DiagnosticsReadings } from "./diagnostics-route.js";
export { diagnosticsSeries, type DiagnosticsReading, type DiagnosticsSeries } from "./diagnostics-series.js";
export { PAGE_DIR } from "./page-files.js";
export { LAST_GOOD_SUFFIX } from "./config-file-write.js";
export { MAX_CONFIG_WRITE_BYTES, type PageConfigSource } from "./config-route.js";
