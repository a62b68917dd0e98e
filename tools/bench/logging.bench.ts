// Cost of a log call: one below the logger's level (filtered out), one written as a JSON line by
// pino (to a no-op stream, and to /dev/null), and one suppressed by de-duplication.
import pino from "pino";
import { createLogEngine, type LoggingSettings } from "../../core/index.js";
import { createNodeClock, createPinoSink } from "../../targets/linux/logging/index.js";
import { nsPerCall, report } from "./report.js";

const fields = { rpm: 60, direction: "forward" };
const noop = { write() {} };

function loggerFor(settings: LoggingSettings, destination: { write(text: string): unknown } = noop) {
  const engine = createLogEngine({ clock: createNodeClock(), sink: createPinoSink(destination), settings });
  return { engine, log: engine.resourceLogger("rdk:component:motor", "left") };
}

{
  const { engine, log } = loggerFor({});
  report("log call filtered out (debug at info)", nsPerCall(() => log.debug("moving", fields)), "ns", "< 100 ns");
  engine.close();
}
{
  const { engine, log } = loggerFor({ disableDeduplication: true });
  report("log call written, pino JSON to a no-op stream", nsPerCall(() => log.info("moving", fields)), "ns", "< 2000 ns");
  engine.close();
}
{
  const devNull = pino.destination({ dest: "/dev/null", sync: true });
  const { engine, log } = loggerFor({ disableDeduplication: true }, devNull);
  report("log call written, pino JSON to /dev/null", nsPerCall(() => log.info("moving", fields)), "ns", "< 2000 ns");
  engine.close();
}
{
  const { engine, log } = loggerFor({});
  let n = 0;
  report(
    "log call written with de-duplication on (distinct fields)",
    nsPerCall(() => log.info("moving", { rpm: n++, direction: "forward" })),
    "ns",
    "< 2000 ns",
  );
  engine.close();
}
{
  const { engine, log } = loggerFor({});
  report("log call de-duplicated (suppressed copy)", nsPerCall(() => log.info("moving", fields)), "ns");
  engine.close();
}
