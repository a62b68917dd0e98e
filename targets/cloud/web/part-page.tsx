// One part: its status (last seen, versions, what its machine made of its config), its config in an editor that checks it as svc-server would, debug logs for it or one of
// its resources, the versions it installs, a new credentials file, its history with restore, its
// logs, and the diagnostics files it uploaded. Reached from the fleet at #/part/<id>.
import { useEffect, useState } from "preact/hooks";
import { appCall } from "./api.js";
import { DebugLogs } from "./debug-logs.js";
import { ConfigEdit } from "./config-edit.js";
import { configProblems } from "../../web-ui/config-problems.js";
import { PartCredentials } from "./part-credentials.js";
import { PartFiles } from "./part-files.js";
import { PartHistory } from "./part-history.js";
import { PartLogs } from "./part-logs.js";
import { PartStatus } from "./part-status.js";
import { PartVersions } from "./part-versions.js";
import { Problem, useProblem } from "../../web-ui/problem.js";

interface RobotPart {
  name: string;
  robot: string;
  lastUpdated: string;
}

export function PartPage(props: { partId: string }) {
  // The part as GetRobotPart answers it, its config read once.
  const [part, setPart] = useState<{ part: RobotPart; configJson: string; config: Record<string, unknown> } | undefined>(undefined);
  const [problem, run] = useProblem();
  // Moves when a restore made a new revision: config and history are read again.
  const [version, setVersion] = useState(0);
  const [restart, setRestart] = useState("");

  const requestRestart = () =>
    run(appCall("MarkPartForRestart", { partId: props.partId }), () => setRestart("Restart requested: the machine restarts when it next asks (every few seconds)."));

  useEffect(() => {
    run(appCall<{ part: RobotPart; configJson: string }>("GetRobotPart", { id: props.partId }), (answer) =>
      setPart({ ...answer, config: JSON.parse(answer.configJson) as Record<string, unknown> }),
    );
  }, [props.partId, version]);

  return (
    <article aria-label="Part">
      <p>
        <a href="#/">Fleet</a>
      </p>
      <Problem text={problem} />
      {part && (
        <>
          <h1>{part.part.name}</h1>
          <p>
            <button type="button" onClick={requestRestart}>
              Restart
            </button>{" "}
            <span role="status">{restart}</span>
          </p>
          <PartStatus partId={props.partId} version={version} />
          <ConfigEdit
            key={part.part.lastUpdated}
            label="Config"
            configJson={part.configJson}
            lastUpdated={part.part.lastUpdated}
            check={configProblems}
            save={(config, basedOn) => appCall("UpdateRobotPart", { id: props.partId, name: "", robotConfig: config, lastKnownUpdate: basedOn })}
            saved={() =>
              appCall<{ configJson: string; part: RobotPart }>("GetRobotPart", { id: props.partId }).then((now) => ({ configJson: now.configJson, lastUpdated: now.part.lastUpdated }))
            }
            onSaved={() => setVersion(version + 1)}
          />
          <DebugLogs partId={props.partId} config={part.config} lastUpdated={part.part.lastUpdated} onSaved={() => setVersion(version + 1)} />
          <PartVersions partId={props.partId} config={part.config} lastUpdated={part.part.lastUpdated} onSaved={() => setVersion(version + 1)} />
          <PartCredentials partId={props.partId} partName={part.part.name} />
          <PartHistory partId={props.partId} version={version} onRestored={() => setVersion(version + 1)} />
          <PartLogs partId={props.partId} />
          <PartFiles partId={props.partId} />
        </>
      )}
    </article>
  );
}
