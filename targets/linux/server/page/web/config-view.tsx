// The machine's configuration. Read-only when it comes from svc-cloud (edit it there) or is the
// built-in machine's; editable when the machine runs a local file: checked as it is typed by the
// same validator the machine runs (the core, bundled here), saved only without errors, and
// checked again by the machine, whose refusal lists each problem at its path. The machine follows
// its file, so a saved configuration is applied at once.
import { useState } from "preact/hooks";
import { configProblems, hasErrors } from "../../../../web-ui/config-problems.js";
import { JsonEditor, type PlacedProblem } from "../../../../web-ui/json-editor.js";
import { Problem, useProblem } from "../../../../web-ui/problem.js";
import { PageApiError, type PageApi } from "./session.js";

export interface PageConfig {
  source: { kind: "file" | "cloud" | "builtin"; label: string };
  editable: boolean;
  text: string;
  revision: string;
  refusal?: { reason: string; issues: Issue[] };
  remotes: string[];
  modules: string[];
}

interface Issue {
  path: string;
  message: string;
  severity: "error" | "warning";
}

export function ConfigView(props: { api: PageApi; config: PageConfig | undefined; problem: string; onSaved: () => void }) {
  const { config } = props;
  return (
    <section aria-label="Configuration">
      <h2>Configuration</h2>
      <Problem text={props.problem} />
      {config && !config.editable && (
        <>
          <p>{config.source.kind === "cloud" ? "This configuration comes from svc-cloud: edit it there." : "This is the built-in simulated machine: start svc-server with -config FILE to edit a configuration here."}</p>
          <pre class="config" aria-label="Configuration text">
            {config.text}
          </pre>
        </>
      )}
      {config?.editable && <ConfigEditor key={config.source.label} api={props.api} config={config} onSaved={props.onSaved} />}
    </section>
  );
}

function ConfigEditor(props: { api: PageApi; config: PageConfig; onSaved: () => void }) {
  const [text, setText] = useState(props.config.text);
  const [problems, setProblems] = useState<PlacedProblem[]>([]);
  const [refused, setRefused] = useState<Issue[]>([]);
  const [saved, setSaved] = useState("");
  const [problem, , setProblem] = useProblem();
  const save = () => {
    setSaved("");
    setRefused([]);
    const errors = configProblems(text).filter((p) => p.severity === "error");
    if (errors.length > 0) return setProblem(`Fix the errors to save: ${errors[0]!.message}`);
    props.api.put<{ file: string }>("/page/api/config", { text }).then(
      (answer) => {
        setProblem("");
        setSaved(`Saved to ${answer.file}; the machine applies it now.`);
        props.onSaved();
      },
      (thrown: Error) => {
        setProblem(thrown.message);
        if (thrown instanceof PageApiError && Array.isArray(thrown.body.issues)) setRefused(thrown.body.issues as Issue[]);
      },
    );
  };
  return (
    <div class="config-editor">
      <p>
        The file <code>{props.config.source.label}</code>, which the machine follows.
      </p>
      <JsonEditor label="Config editor" text={props.config.text} check={configProblems} onText={setText} onProblems={setProblems} />
      <ul class="config-problems" aria-label="Config problems">
        {[...problems.map((p) => ({ key: `${p.line}:${p.message}`, severity: p.severity, text: `line ${p.line}: ${p.message}` })), ...refused.map((i) => ({ key: `r:${i.path}:${i.message}`, severity: i.severity, text: i.path ? `${i.path}: ${i.message}` : i.message }))].map((p) => (
          <li key={p.key} class={p.severity}>
            {p.text}
          </li>
        ))}
      </ul>
      <button type="button" onClick={save} disabled={hasErrors(problems) || text === props.config.text}>
        Save
      </button>
      <Problem text={problem} />
      {saved && <p role="status">{saved}</p>}
    </div>
  );
}
