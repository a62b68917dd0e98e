// One metric over time as a standalone SVG: a title, a y axis labelled with the lowest and highest
// value, an x axis labelled with the first and last time (UTC), and the values as a polyline.
// Text is escaped, so a metric name never becomes markup. A long series keeps the lowest and the
// highest point of each pixel column, so spikes survive and the drawing stays small.
import type { FtdcSeries } from "./ftdc-series.js";
import { formatFloat32 } from "./ftdc-text.js";

export interface SvgChartOptions {
  /** Default 800. */
  width?: number;
  /** Default 240. */
  height?: number;
}

const margin = { left: 90, right: 20, top: 30, bottom: 40 };

/** Text for an SVG (or HTML) element or attribute. */
export function escapeXml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);
}

export function renderSvgChart(series: FtdcSeries, options: SvgChartOptions = {}): string {
  const width = options.width ?? 800;
  const height = options.height ?? 240;
  const plotW = width - margin.left - margin.right;
  const plotH = height - margin.top - margin.bottom;
  const { timesMs, values } = series;
  const t0 = timesMs[0] ?? 0;
  const t1 = timesMs[timesMs.length - 1] ?? t0;
  const finite = values.filter(Number.isFinite);
  const lo = finite.length ? Math.min(...finite) : 0;
  const hi = finite.length ? Math.max(...finite) : 0;
  const x = (t: number) => margin.left + (t1 === t0 ? plotW / 2 : ((t - t0) / (t1 - t0)) * plotW);
  const y = (v: number) => margin.top + (hi === lo ? plotH / 2 : (1 - (v - lo) / (hi - lo)) * plotH);
  const points = pixelColumns(timesMs, values, x, y).join(" ");
  const bottom = margin.top + plotH;
  const right = margin.left + plotW;
  const title = escapeXml(series.name);
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="sans-serif" font-size="12">`,
    `<title>${title}</title>`,
    `<rect width="${width}" height="${height}" fill="#fff"/>`,
    `<text x="${margin.left}" y="18" font-weight="bold">${title}</text>`,
    `<line class="axis" x1="${margin.left}" y1="${margin.top}" x2="${margin.left}" y2="${bottom}" stroke="#333"/>`,
    `<line class="axis" x1="${margin.left}" y1="${bottom}" x2="${right}" y2="${bottom}" stroke="#333"/>`,
    `<text x="${margin.left - 6}" y="${margin.top + 4}" text-anchor="end">${escapeXml(formatFloat32(hi))}</text>`,
    `<text x="${margin.left - 6}" y="${bottom + 4}" text-anchor="end">${escapeXml(formatFloat32(lo))}</text>`,
    `<text x="${margin.left}" y="${bottom + 18}">${clockTime(t0)}</text>`,
    `<text x="${right}" y="${bottom + 18}" text-anchor="end">${clockTime(t1)}</text>`,
    `<text x="${margin.left + plotW / 2}" y="${height - 6}" text-anchor="middle">time (UTC)</text>`,
    `<polyline fill="none" stroke="#1f6feb" stroke-width="1.5" points="${points}"/>`,
    `</svg>`,
    "",
  ].join("\n");
}

/** The points to draw: every point, or the lowest and highest of each pixel column. */
function pixelColumns(times: number[], values: number[], x: (t: number) => number, y: (v: number) => number): string[] {
  const out: string[] = [];
  let column = Number.NaN;
  let low = 0;
  let high = 0;
  const flush = () => {
    if (Number.isNaN(column)) return;
    out.push(`${round(column)},${round(y(values[low]!))}`);
    if (high !== low) out.push(`${round(column)},${round(y(values[high]!))}`);
  };
  for (let i = 0; i < times.length; i++) {
    if (!Number.isFinite(values[i]!)) continue;
    const px = Math.round(x(times[i]!));
    if (px !== column) {
      flush();
      column = px;
      low = high = i;
    } else {
      if (values[i]! < values[low]!) low = i;
      if (values[i]! > values[high]!) high = i;
    }
  }
  flush();
  return out;
}

function round(n: number): number {
  return Math.round(n * 10) / 10;
}

function clockTime(ms: number): string {
  return new Date(ms).toISOString().replace("T", " ").slice(0, 19);
}
