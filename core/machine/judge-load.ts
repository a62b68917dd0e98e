// Everything a load decides before it changes anything: the platform's screen, whether the
// configuration may replace the running one (acceptConfig), and the lines of its diff. Pure; it
// may throw (a screen can), which refuses the load.
import { acceptConfig, type ConfigIssue, type ConfigReading } from "../config/index.js";
import { formatConfigDiff } from "../logging/index.js";
import type { ConfigScreen, RunningConfig } from "./machine-types.js";

export type Judgement =
  | { accepted: false; reason: string; issues: ConfigIssue[] }
  | { accepted: true; next: RunningConfig; changes: string[] };

export interface JudgeContext {
  revision: string;
  origin: string;
  running: RunningConfig | undefined;
  screen?: ConfigScreen;
  revealSecrets?: boolean;
}

export function judgeLoad(reading: ConfigReading, context: JudgeContext): Judgement {
  const { running } = context;
  const screened =
    reading.config && context.screen
      ? context.screen({ config: reading.config, issues: reading.issues }, reading.written)
      : { config: reading.config, issues: reading.issues };
  const acceptance = acceptConfig(screened, running);
  if (!acceptance.accepted) return { accepted: false, reason: acceptance.reason, issues: acceptance.newErrors };
  const config = acceptance.config;
  const changes = running ? formatConfigDiff(running.config, config, { reveal: context.revealSecrets }) : [];
  return { accepted: true, next: { config, issues: screened.issues, revision: context.revision, origin: context.origin }, changes };
}
