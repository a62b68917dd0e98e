// A config (a part's own, or a fragment) edited as JSON with the validator svc-server runs checking
// it as the person types (each problem on its line, and listed as `line N: path: message`), or
// added to through a form (a component of a known API and model, its attributes from the model's
// schema). Saving makes a new revision based on the one shown, which machines are told of at once.
// When someone saved in between, nothing is overwritten: the page shows what they saved beside this
// edit, and the person saves theirs over it or takes the saved one.
import { useState } from "preact/hooks";
import { ApiError } from "./api.js";
import { AddComponent } from "./add-component.js";
import { hasErrors, type ConfigProblem } from "../../web-ui/config-problems.js";
import { JsonEditor, type PlacedProblem } from "../../web-ui/json-editor.js";
import { Problem, useProblem } from "../../web-ui/problem.js";
import { SideBySideDiff } from "./side-by-side-diff.js";

interface Conflict {
  /** The config as saved meanwhile, and when. */
  saved: string;
  lastUpdated: string;
}

export interface ConfigEditProps {
  /** The region's name and heading. */
  label: string;
  /** The config as saved, and when. */
  configJson: string;
  lastUpdated: string;
  check: (text: string) => ConfigProblem[];
  /** Saves `config` as an edit of the config saved at `basedOn`. */
  save: (config: object, basedOn: string) => Promise<unknown>;
  /** The config as saved now, for a conflict. */
  saved: () => Promise<{ configJson: string; lastUpdated: string }>;
  onSaved: () => void;
}

export function ConfigEdit(props: ConfigEditProps) {
  const [text, setText] = useState(props.configJson);
  // Moves when the form rewrites the text: the editor is made again with it.
  const [rewrites, setRewrites] = useState(0);
  const [problems, setProblems] = useState<PlacedProblem[]>([]);
  const [conflict, setConflict] = useState<Conflict | undefined>(undefined);
  const [busy, setBusy] = useState(false);
  const [problem, run, setProblem] = useProblem();

  const blocked = hasErrors(problems);
  const changed = text !== props.configJson;

  const save = (basedOn: string) => {
    // The editor checks a moment after typing stops; a save made sooner is checked here.
    const errors = props.check(text).filter((p) => p.severity === "error");
    if (errors.length > 0) return setProblem(`Fix the errors to save: ${errors[0]!.message}`);
    setBusy(true);
    props.save(JSON.parse(text) as object, basedOn).then(
      () => (setBusy(false), setConflict(undefined), props.onSaved()),
      (thrown: Error) => {
        setBusy(false);
        if (!(thrown instanceof ApiError && thrown.code === "aborted")) return setProblem(thrown.message);
        run(props.saved(), (now) => setConflict({ saved: now.configJson, lastUpdated: now.lastUpdated }));
      },
    );
  };

  const rewrite = (config: object) => {
    setText(JSON.stringify(config, null, 2));
    setRewrites(rewrites + 1);
  };

  return (
    <section aria-label={props.label}>
      <h2>{props.label}</h2>
      <JsonEditor key={rewrites} label={props.label} text={text} check={props.check} onText={setText} onProblems={setProblems} />
      {problems.length > 0 && (
        <ul class="config-problems" aria-label="Config problems">
          {problems.map((p, index) => (
            <li key={index} class={p.severity}>
              line {p.line}: {p.message}
            </li>
          ))}
        </ul>
      )}
      <Problem text={problem} />
      <p class="controls">
        <button type="button" disabled={busy || blocked || !changed || conflict !== undefined} onClick={() => save(props.lastUpdated)}>
          Save
        </button>
        {changed && (
          <button type="button" disabled={busy} onClick={() => (setConflict(undefined), setProblem(""), setText(props.configJson), setRewrites(rewrites + 1))}>
            Discard changes
          </button>
        )}
        <span role="status">{blocked ? "Fix the errors to save." : changed ? "Not saved." : ""}</span>
      </p>
      {conflict && (
        <div class="conflict" role="alert">
          <p>Someone saved this config after you started editing. Theirs is on the left, yours on the right.</p>
          <SideBySideDiff label="Conflict" leftTitle="Saved meanwhile" rightTitle="Yours" left={conflict.saved} right={text} />
          <button type="button" disabled={busy} onClick={() => save(conflict.lastUpdated)}>
            Save mine over theirs
          </button>{" "}
          <button type="button" disabled={busy} onClick={() => (setConflict(undefined), props.onSaved())}>
            Take theirs
          </button>
        </div>
      )}
      <AddComponent text={text} onAdd={rewrite} />
    </section>
  );
}
