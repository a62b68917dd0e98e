// One metric's last hour as a chart: core/ftdc's SVG (its text escaped there) shown as an image
// from a data: URL, which the page's Content-Security-Policy allows and in which nothing runs. It
// scales down to the width it is given; on a narrow screen it is drawn narrower, so its labels
// stay readable.
import { renderSvgChart, type FtdcSeries } from "../../../../../core/ftdc/index.js";

export function DiagnosticsChart(props: { series: FtdcSeries; label: string; narrow: boolean }) {
  const width = props.narrow ? 380 : 560;
  const svg = renderSvgChart(props.series, { width, height: 200 });
  return (
    <figure class="chart" data-metric={props.series.name}>
      <figcaption>{props.label}</figcaption>
      <img src={`data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`} alt={`chart of ${props.series.name}`} width={width} height={200} />
    </figure>
  );
}
