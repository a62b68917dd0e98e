// PUT /svc/config on the MCU: the whole configuration as the body, answered with the JSON report
// of what became of it (422 when refused). With API keys configured it needs a token like any
// call (401 without one, 403 over plaintext from another machine), checked from the head before
// the body is read; a body past the limit is 413.
import { Code } from "../../core/index.js";
import { decodeUtf8, encodeUtf8 } from "./codec/index.js";
import type { Refusal } from "./api-key-gate.js";
import { CONFIG_ROUTE, MAX_CONFIG_BODY_BYTES } from "./body-limits.js";
import { accepting, answered, text, type HeaderList, type HttpArrival, type HttpCall, type HttpHead } from "./http-arrival.js";
import type { ConfigReport } from "./mcu-machine.js";

export interface ConfigRouteContext {
  apply(text: string): Promise<ConfigReport>;
  /** Why this caller may not change the configuration, or undefined. */
  refusal: Refusal | undefined;
  /** CORS headers for the answer. */
  cors: HeaderList;
}

function putConfig(body: Uint8Array, context: ConfigRouteContext): HttpCall {
  let configText: string;
  try {
    configText = decodeUtf8(body);
  } catch {
    return text(400, "the configuration is not UTF-8 text", context.cors);
  }
  const headers: HeaderList = [["content-type", "application/json"], ...context.cors];
  return {
    done: context.apply(configText).then((report) => ({
      status: report.outcome === "refused" ? 422 : 200,
      headers,
      body: encodeUtf8(JSON.stringify(report)),
    })),
    cancel: () => {},
  };
}

export function openConfigRoute(head: HttpHead, context: ConfigRouteContext): HttpArrival {
  if (head.method !== "PUT") return answered(text(405, `${CONFIG_ROUTE} takes PUT`, [["allow", "PUT"]]));
  const { refusal, cors } = context;
  if (refusal) {
    const unauthenticated = refusal.code === Code.Unauthenticated;
    return answered(text(unauthenticated ? 401 : 403, refusal.message, unauthenticated ? [["www-authenticate", "Bearer"], ...cors] : cors));
  }
  return accepting(
    MAX_CONFIG_BODY_BYTES,
    (body) => putConfig(body, context),
    () => text(413, `the configuration is larger than ${MAX_CONFIG_BODY_BYTES} bytes, the most svc-mcu reads`, cors),
  );
}
