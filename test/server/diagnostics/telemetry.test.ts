// -output-telemetry on a real API server: calls counted by method with errors by code and
// latency percentiles, resources by state, spans for calls and for what the machine wraps, all
// as JSON lines; the percentiles of the histogram are checked against exact ones.
import { Code, ConnectError, createClient, type ConnectRouter } from "@connectrpc/connect";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BoardService } from "../../../proto/gen/component/board/v1/board_pb.js";
import { createLatencyHistogram, createTelemetry, type Telemetry } from "../../../targets/linux/server/diagnostics/index.js";
import { createApiServer, type ApiServer } from "../../../targets/linux/server/transport/index.js";
import { grpcTransport, grpcWebTransport, sensorClient, sensorRoutes } from "../transport/sensor-fixture.js";

const readings = "/viam.component.sensor.v1.SensorService/GetReadings";
const ticks = "/viam.component.board.v1.BoardService/StreamTicks";

function routes(router: ConnectRouter): void {
  sensorRoutes(router);
  router.service(BoardService, {
    async *streamTicks(req) {
      if (req.name !== "board") throw new ConnectError(`board ${req.name} not found`, Code.NotFound);
      for (let i = 0; i < 3; i++) yield { pinName: "7", time: BigInt(i), high: i % 2 === 0 };
    },
  });
}

let server: ApiServer;
let telemetry: Telemetry;
const lines: string[] = [];
const records = () => lines.flatMap((chunk) => chunk.trimEnd().split("\n")).map((line) => JSON.parse(line));

beforeAll(async () => {
  telemetry = createTelemetry({
    write: (line) => void lines.push(line),
    intervalMs: 3_600_000,
    resourceStates: () => ({ ready: 3, failed: 1 }),
    maxCallSpansPerInterval: 8,
  });
  server = await createApiServer({ bindAddress: "127.0.0.1:0", routes, interceptors: [telemetry.interceptor] });
});
afterAll(() => server.close());

describe("telemetry", () => {
  it("counts calls by method with errors by code and latency percentiles, and resources by state", async () => {
    lines.length = 0;
    const sensor = sensorClient(grpcTransport(server.url));
    const web = sensorClient(grpcWebTransport(server.url));
    for (let i = 0; i < 4; i++) await sensor.getReadings({ name: "temp" });
    await web.getReadings({ name: "temp" });
    await sensor.getReadings({ name: "nope" }).catch(() => {});
    await web.getReadings({ name: "" }).catch(() => {});
    const board = createClient(BoardService, grpcTransport(server.url));
    const got: boolean[] = [];
    for await (const tick of board.streamTicks({ name: "board" })) got.push(tick.high);
    expect(got).toEqual([true, false, true]);
    await (async () => {
      for await (const _ of board.streamTicks({ name: "nobody" }));
    })().catch(() => {});
    telemetry.flush();

    const all = records();
    const metrics = all.filter((r) => r.type === "metrics").at(-1);
    expect(metrics.resources).toEqual({ ready: 3, failed: 1 });
    expect(metrics.calls[readings]).toMatchObject({ count: 7, errors: 2, codes: { not_found: 1, invalid_argument: 1 } });
    expect(metrics.calls[ticks]).toMatchObject({ count: 2, errors: 1, codes: { not_found: 1 } });
    const latency = metrics.calls[readings].latency_ms;
    expect(latency.p50).toBeGreaterThan(0);
    expect(latency.p50).toBeLessThanOrEqual(latency.p90);
    expect(latency.p90).toBeLessThanOrEqual(latency.p99);
    expect(latency.p99).toBeLessThanOrEqual(latency.max);
    expect(Date.parse(metrics.time)).not.toBeNaN();

    const spans = all.filter((r) => r.type === "span");
    expect(spans.filter((s) => s.name === `call ${readings}`)).toHaveLength(7);
    expect(spans.find((s) => s.attributes?.code === "not_found" && s.name === `call ${readings}`)).toMatchObject({ outcome: "error", error: "not_found" });
    for (const span of spans) {
      expect(Date.parse(span.start)).not.toBeNaN();
      expect(span.duration_ms).toBeGreaterThanOrEqual(0);
    }
    expect(metrics.spans_dropped).toBe(1);
  });

  it("span() prints a span with its outcome and returns or rethrows", async () => {
    lines.length = 0;
    expect(await telemetry.span("reconfigure", async () => 42, { added: 2, removed: 0 })).toBe(42);
    await expect(telemetry.span("reconfigure", () => Promise.reject(new Error("bad board pin")))).rejects.toThrow("bad board pin");
    expect(await telemetry.span("sync", () => "done")).toBe("done");
    const spans = records();
    expect(spans[0]).toMatchObject({ type: "span", name: "reconfigure", outcome: "ok", attributes: { added: 2, removed: 0 } });
    expect(spans[1]).toMatchObject({ type: "span", name: "reconfigure", outcome: "error", error: "bad board pin" });
    expect(spans[2]).toMatchObject({ name: "sync", outcome: "ok" });
  });

  it("prints periodically, and a last time at close", async () => {
    const own: string[] = [];
    const periodic = createTelemetry({ write: (line) => void own.push(line), intervalMs: 20 });
    periodic.recordCall("/x.Y/Z", Date.now(), 1.5);
    for (let i = 0; i < 100 && own.length === 0; i++) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(own.join("")).toContain('"type":"metrics"');
    periodic.close();
    const closing = own.at(-1)!;
    expect(JSON.parse(closing)).toMatchObject({ type: "metrics", calls: { "/x.Y/Z": { count: 1 } } });
    const after = own.length;
    periodic.close();
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(own).toHaveLength(after);
  });
});

describe("latency histogram", () => {
  it("each percentile is at or above the exact one and within one bucket (10 %) of it", () => {
    fc.assert(
      fc.property(fc.array(fc.double({ min: 0.002, max: 60_000, noNaN: true }), { minLength: 1, maxLength: 300 }), (samples) => {
        const histogram = createLatencyHistogram();
        for (const ms of samples) histogram.record(ms);
        const sorted = [...samples].sort((a, b) => a - b);
        const exact = (p: number) => sorted[Math.max(1, Math.ceil(sorted.length * p)) - 1]!;
        const summary = histogram.summary();
        for (const [p, value] of [[0.5, summary.p50], [0.9, summary.p90], [0.99, summary.p99]] as const) {
          expect(value).toBeGreaterThanOrEqual(Math.round(exact(p) * 1000) / 1000 - 0.001);
          expect(value).toBeLessThanOrEqual(exact(p) * 1.1 + 0.001);
        }
        expect(summary.max).toBeCloseTo(sorted.at(-1)!, 3);
      }),
    );
  });
});
