// Release resolution as one JSON-in, JSON-out call, so tests can run the same questions against
// the index in Node and in XS (where only JSON crosses) and compare the answers.
import { parseReleaseIndex, resolveRelease, type ReleaseProduct, type ReleaseResolution } from "../../../core/agent/release-index.js";

export interface ReleaseScenarioInput {
  indexJson: unknown;
  indexUrl: string;
  queries: { product: ReleaseProduct; spec: string; platform: string; bad?: string[] }[];
}

export interface ReleaseScenarioOutput {
  problems: string[];
  results: ReleaseResolution[];
}

export function runReleaseScenario(input: ReleaseScenarioInput): ReleaseScenarioOutput {
  const { index, problems } = parseReleaseIndex(input.indexJson, input.indexUrl);
  const results = input.queries.map((q) => resolveRelease(index, q.product, q.spec, q.platform, new Set(q.bad ?? [])));
  return { problems, results };
}
