// What the part's machine says of itself: when it last reached svc-cloud, the svc-server and
// svc-agent it runs and has installed (its agent's report), and its config: the revision it runs,
// or the revision it refused and why (a config with errors leaves the machine as it was, and this
// is where the person who saved it learns so). Read again every few seconds and after each save.
import { cloudCall } from "./api.js";
import { Problem } from "../../web-ui/problem.js";
import { usePolled } from "../../web-ui/use-polled.js";

const REFRESH_MS = 5_000;

interface PartStatusAnswer {
  lastAccess?: string;
  svcServer?: string;
  svcServerInstalled?: string;
  svcAgent?: string;
  svcAgentInstalled?: string;
  os?: string;
  platform?: string;
  revision?: string;
  runningRevision?: string;
  refusedRevision?: string;
  refusedReason?: string;
  configReportedAt?: string;
}

const when = (iso: string | undefined) => (iso ? new Date(iso).toLocaleString() : "never");

/** "1.1.0", or "1.0.0 (1.1.0 installed, runs after a restart)". */
function versionText(running: string | undefined, installed: string | undefined): string {
  if (!running && !installed) return "not reported";
  if (!installed || installed === running) return running || "not running";
  return `${running || "not running"} (${installed} installed, runs after a restart)`;
}

function ConfigState(props: { status: PartStatusAnswer }) {
  const { runningRevision, refusedRevision, refusedReason, revision } = props.status;
  if (refusedRevision) {
    return (
      <p class="problem" role="alert" aria-label="Config refused">
        The machine refused revision {refusedRevision} and keeps running {runningRevision || "what it ran"}: {refusedReason}
      </p>
    );
  }
  if (!runningRevision) return <p>The machine has not said which revision it runs.</p>;
  const current = runningRevision === revision;
  return (
    <p aria-label="Config state">
      The machine runs revision {runningRevision}
      {current ? ", the newest." : ` (the newest is ${revision ?? "?"}).`}
    </p>
  );
}

export function PartStatus(props: { partId: string; version: number }) {
  const { answer: status, problem } = usePolled(() => cloudCall<PartStatusAnswer>("GetPartStatus", { partId: props.partId }), REFRESH_MS, [props.partId, props.version]);

  return (
    <section aria-label="Status">
      <h2>Status</h2>
      <Problem text={problem} />
      {status && (
        <>
          <table>
            <tbody>
              <tr>
                <th scope="row">Last seen</th>
                <td>{when(status.lastAccess)}</td>
              </tr>
              <tr>
                <th scope="row">svc-server</th>
                <td>{versionText(status.svcServer, status.svcServerInstalled)}</td>
              </tr>
              <tr>
                <th scope="row">svc-agent</th>
                <td>{versionText(status.svcAgent, status.svcAgentInstalled)}</td>
              </tr>
              <tr>
                <th scope="row">Platform</th>
                <td>{[status.os, status.platform].filter(Boolean).join(", ") || "not reported"}</td>
              </tr>
            </tbody>
          </table>
          <ConfigState status={status} />
        </>
      )}
    </section>
  );
}
