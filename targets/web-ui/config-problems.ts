// What the config validator svc-server runs (core/config) finds in a part's config text, each
// problem placed on the text where its path is written, as `path: message`. Text that is not JSON
// has one problem, where the grammar breaks. `fragments` and `fragment_mods`, which svc-server
// itself does not act on, are svc-cloud's to act on: no warning says otherwise here.
import { parseMachineConfig } from "../../core/config/index.js";
import { jsonPlaces, placeOf } from "./json-places.js";

export interface ConfigProblem {
  from: number;
  to: number;
  severity: "error" | "warning";
  /** `path: message`, or the message alone for the whole document. */
  message: string;
}

/** The keys svc-cloud acts on, merging fragments before a config reaches the machine. */
const CLOUD_KEYS = /^fragment(s|_mods)(\[|$)/;

export function configProblems(text: string): ConfigProblem[] {
  const issues = parseMachineConfig(text).issues.filter((issue) => !(issue.severity === "warning" && CLOUD_KEYS.test(issue.path)));
  if (issues.length === 0) return [];
  const { places, fault } = jsonPlaces(text);
  return issues.map((issue) => {
    const place = fault !== undefined && issue.path === "" ? { from: fault, to: Math.min(fault + 1, text.length) } : placeOf(places, issue.path);
    return {
      from: place?.from ?? 0,
      to: place?.to ?? Math.min(1, text.length),
      severity: issue.severity,
      message: issue.path === "" ? issue.message : `${issue.path}: ${issue.message}`,
    };
  });
}

/** A fragment's problems: a config's, and `cloud`, which svc-cloud fills in for each machine itself. */
export function fragmentProblems(text: string): ConfigProblem[] {
  const problems = configProblems(text);
  const cloud = jsonPlaces(text).places.get("cloud");
  if (cloud) problems.push({ ...cloud, severity: "error", message: "cloud: a fragment cannot set cloud: each machine's own credentials are filled in by svc-cloud" });
  return problems;
}

/** Whether any of `problems` keeps the config from being saved. */
export const hasErrors = (problems: readonly ConfigProblem[]) => problems.some((p) => p.severity === "error");
