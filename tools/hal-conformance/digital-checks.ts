// Digital checks on two pins wired together: levels carried both ways, pull-ups and pull-downs,
// open drain, edge callbacks (rising, falling, both), and a pin refused while held.
import { IOError, requireIO, type Digital, type DigitalOptions } from "../../hal/io.js";
import { expectEqual, sleep, type Check, type ConformanceTarget } from "./check.js";

const TOGGLES = 5;

export function digitalChecks(target: ConformanceTarget, [a, b]: [string, string]): Check[] {
  const Digital = () => requireIO(target.io, "Digital");
  /** Runs `body` with handles opened in order, closing every one of them after. */
  const using = async (opens: DigitalOptions[], body: (handles: Digital[]) => Promise<void> | void) => {
    const handles: Digital[] = [];
    try {
      for (const options of opens) handles.push(new (Digital())(options));
      await body(handles);
    } finally {
      for (const h of handles.reverse()) h.close();
    }
  };
  const settle = () => sleep(target.settleMs);

  const levels = (from: string, to: string): Check => ({
    capability: `digital ${from} -> ${to}`,
    run: () =>
      using([{ pin: from, mode: "output" }, { pin: to, mode: "input" }], async ([out, input]) => {
        for (const level of [1, 0, 1, 0] as const) {
          out!.write(level);
          await settle();
          expectEqual(input!.read(), level, `${to} after writing ${level} to ${from}`);
        }
      }),
  });

  const pull = (pin: string, mode: "input-pull-up" | "input-pull-down"): Check => ({
    capability: `${mode === "input-pull-up" ? "pull-up" : "pull-down"} ${pin}`,
    run: () =>
      using([{ pin, mode }], async ([input]) => {
        await settle();
        expectEqual(input!.read(), mode === "input-pull-up" ? 1 : 0, `${pin} with nothing driving it`);
      }),
  });

  const openDrain: Check = {
    capability: `open drain ${a} -> ${b}`,
    run: () =>
      using([{ pin: b, mode: "input-pull-up" }, { pin: a, mode: "output-open-drain" }], async ([input, out]) => {
        out!.write(0);
        await settle();
        expectEqual(input!.read(), 0, `${b} while ${a} pulls low`);
        out!.write(1);
        await settle();
        expectEqual(input!.read(), 1, `${b} pulled up while ${a} lets go`);
      }),
  };

  const edges = (edge: "rising" | "falling" | "both"): Check => ({
    capability: `edges (${edge}) ${a} -> ${b}`,
    run: async () => {
      let count = 0;
      await using(
        [{ pin: a, mode: "output" }, { pin: b, mode: "input", edge, onReadable: () => count++ }],
        async ([out]) => {
          out!.write(0);
          await settle();
          count = 0;
          for (let i = 0; i < TOGGLES; i++) {
            out!.write(1);
            await settle();
            out!.write(0);
            await settle();
          }
          await settle();
        },
      );
      expectEqual(count, edge === "both" ? 2 * TOGGLES : TOGGLES, `${edge} edges seen on ${b} for ${TOGGLES} pulses on ${a}`);
      const after = count;
      await sleep(target.settleMs);
      expectEqual(count, after, "callbacks after close");
    },
  });

  const busy: Check = {
    capability: `pin held ${a}`,
    run: async () => {
      const first = new (Digital())({ pin: a, mode: "output" });
      try {
        let refused: unknown;
        try {
          new (Digital())({ pin: a, mode: "input" }).close();
        } catch (thrown) {
          refused = thrown;
        }
        if (!(refused instanceof IOError) || refused.code !== "busy") {
          throw new Error(`a second open of ${a} should fail with a "busy" IOError, got ${refused === undefined ? "success" : String(refused)}`);
        }
      } finally {
        first.close();
      }
      // The refused open left nothing behind: the pin opens again.
      new (Digital())({ pin: a, mode: "input" }).close();
    },
  };

  return [
    levels(a, b),
    levels(b, a),
    pull(a, "input-pull-up"),
    pull(a, "input-pull-down"),
    pull(b, "input-pull-up"),
    pull(b, "input-pull-down"),
    openDrain,
    edges("rising"),
    edges("falling"),
    edges("both"),
    busy,
  ];
}
