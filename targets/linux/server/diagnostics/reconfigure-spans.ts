// -output-telemetry: each configuration load is a "reconfigure" span, from the moment the machine
// begins it to its result, unchanged loads included. Loads run one at a time, so one span is
// open at most.
import type { ConfigListener } from "../../../../core/index.js";
import type { Telemetry } from "./telemetry.js";

export function reconfigureSpans(telemetry: Telemetry): ConfigListener {
  let end: ((error?: string) => void) | undefined;
  return (event) => {
    if (event.kind === "loading") {
      end = telemetry.startSpan("reconfigure", { origin: event.origin });
    } else if (event.kind === "loaded") {
      end?.();
      end = undefined;
    }
  };
}
