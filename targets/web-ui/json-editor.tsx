// A JSON text editor (CodeMirror 6): line numbers, JSON highlighting, undo, and the problems
// `check` finds marked on their lines as the person types. The problems, each with its line, also
// reach the page (`onProblems`) so they can be listed where a screen reader or a glance finds
// them. Tab is left to move between the page's controls. Made once per mount: a page that wants
// other text remounts it (a `key`). The editor lives in a shadow root of its own, where its styles
// are a constructed style sheet: the page's Content-Security-Policy admits no <style> element.
import { useEffect, useRef } from "preact/hooks";
import { EditorState } from "@codemirror/state";
import { EditorView, drawSelection, highlightActiveLine, keymap, lineNumbers } from "@codemirror/view";
import { defaultKeymap, history, historyKeymap } from "@codemirror/commands";
import { bracketMatching, defaultHighlightStyle, indentOnInput, syntaxHighlighting } from "@codemirror/language";
import { json } from "@codemirror/lang-json";
import { linter, lintGutter, type Diagnostic } from "@codemirror/lint";
import type { ConfigProblem } from "./config-problems.js";

export interface PlacedProblem extends ConfigProblem {
  line: number;
}

export interface JsonEditorProps {
  label: string;
  text: string;
  check: (text: string) => ConfigProblem[];
  onText: (text: string) => void;
  onProblems: (problems: PlacedProblem[]) => void;
}

const theme = EditorView.theme({
  "&": { maxHeight: "32rem", fontSize: ".9rem", background: "#fff", border: "1px solid #cbd5e1", borderRadius: ".35rem" },
  "&.cm-focused": { outline: "2px solid #2563eb" },
  ".cm-scroller": { fontFamily: "ui-monospace, monospace" },
});

export function JsonEditor(props: JsonEditorProps) {
  const host = useRef<HTMLDivElement>(null);
  // The latest callbacks, read by the editor made once.
  const latest = useRef(props);
  latest.current = props;

  useEffect(() => {
    const lint = linter(
      (view): Diagnostic[] => {
        const placed = latest.current.check(view.state.doc.toString()).map((problem) => ({ ...problem, line: view.state.doc.lineAt(problem.from).number }));
        latest.current.onProblems(placed);
        return placed.map(({ from, to, severity, message }) => ({ from, to, severity, message }));
      },
      { delay: 250 },
    );
    const root = host.current!.attachShadow({ mode: "open" });
    const view = new EditorView({
      root,
      parent: root,
      state: EditorState.create({
        doc: props.text,
        extensions: [
          lineNumbers(),
          history(),
          drawSelection(),
          highlightActiveLine(),
          indentOnInput(),
          bracketMatching(),
          syntaxHighlighting(defaultHighlightStyle),
          keymap.of([...defaultKeymap, ...historyKeymap]),
          json(),
          lintGutter(),
          theme,
          lint,
          EditorView.contentAttributes.of({ "aria-label": props.label }),
          EditorView.updateListener.of((update) => {
            if (update.docChanged) latest.current.onText(update.state.doc.toString());
          }),
        ],
      }),
    });
    return () => view.destroy();
  }, []);

  return <div class="editor" ref={host} />;
}
