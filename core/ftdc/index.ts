// Public face of core/ftdc: Viam's FTDC format (schema documents, diffed readings), a reader over
// bytes, the flattening of nested metrics, and the readings as CSV and SVG charts.
export { encodeSchema, goJsonString, SCHEMA_BYTE } from "./ftdc-schema.js";
export { changedMetrics, diffByteCount, DIFF_EPSILON, encodeReading } from "./ftdc-reading.js";
export { createFtdcEncoder, type FtdcEncoder } from "./ftdc-encoder.js";
export { readFtdc, type FtdcReadOptions, type FtdcReading } from "./ftdc-reader.js";
export { flattenMetrics, type FlatMetrics, type MetricTree } from "./flatten-metrics.js";
export { formatFloat32, formatFtdcTime, ftdcTimeMs } from "./ftdc-text.js";
export { csvField, ftdcCsvLines } from "./ftdc-csv.js";
export { ftdcSeries, type FtdcSeries } from "./ftdc-series.js";
export { escapeXml, renderSvgChart, type SvgChartOptions } from "./svg-chart.js";
