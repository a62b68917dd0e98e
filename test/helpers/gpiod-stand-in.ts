// A stand-in for node-libgpiod over wired lines, for the GPIO backend's tests on a machine with
// no GPIO chip: lines requested with the libgpiod 1.x flags, EBUSY for a line already held, a
// level seen through a wire from another line's output, or from the line's own bias. It keeps
// the library's shape (Chip, Line, getChipNames) and its errors (Error with an errno `code`).
import type { GpiodChip, GpiodLibrary, GpiodLine } from "../../hal/linux/native.js";

const OPEN_DRAIN = 1;
const PULL_DOWN = 1 << 4;
const PULL_UP = 1 << 5;

interface LineState {
  consumer: string;
  output: boolean;
  flags: number;
  value: number;
}

const errno = (code: string, call: string) => Object.assign(new Error(`${code}, ${call}`), { code });

export interface GpiodStandIn extends GpiodLibrary {
  /** What each line is requested as, by chip:line. */
  held(chip: string, line: number): LineState | undefined;
}

export function createGpiodStandIn(chips: Record<string, { label: string; lines: number }>, wires: Array<[number, number]> = []): GpiodStandIn {
  const state = new Map<string, LineState>();
  const partner = new Map<number, number>();
  for (const [a, b] of wires) {
    partner.set(a, b);
    partner.set(b, a);
  }
  const key = (chip: string, line: number) => `${chip}:${line}`;

  class Chip implements GpiodChip {
    readonly label: string;
    readonly numberOfLines: number;
    constructor(readonly name: string) {
      const chip = chips[name];
      if (!chip) throw errno("ENOENT", "Chip::new - Unable to open device");
      this.label = chip.label;
      this.numberOfLines = chip.lines;
    }
  }

  class Line implements GpiodLine {
    constructor(private readonly chip: Chip, private readonly offset: number) {
      if (offset >= chip.numberOfLines) throw errno("EINVAL", "::Line");
    }
    private get key() {
      return key(this.chip.name, this.offset);
    }
    get consumer() {
      return state.get(this.key)?.consumer ?? "";
    }
    requestInputModeFlags(consumer: string, flags: number) {
      this.request({ consumer, output: false, flags, value: 0 });
    }
    requestOutputModeFlags(consumer: string, flags: number, value = 0) {
      this.request({ consumer, output: true, flags, value });
    }
    getValue() {
      const own = state.get(this.key);
      if (!own) throw errno("EPERM", "::getValue");
      const other = partner.has(this.offset) ? state.get(key(this.chip.name, partner.get(this.offset)!)) : undefined;
      const pulled = own.flags & PULL_UP ? 1 : own.flags & PULL_DOWN ? 0 : other && other.flags & PULL_UP ? 1 : 0;
      const drives = (s: LineState) => s.output && !(s.flags & OPEN_DRAIN && s.value === 1);
      if (drives(own)) return own.value;
      if (other && drives(other)) return other.value;
      return pulled;
    }
    setValue(value: number) {
      const own = state.get(this.key);
      if (!own?.output) throw errno("EPERM", "::setValue");
      own.value = value;
    }
    release() {
      state.delete(this.key);
    }
    private request(s: LineState) {
      if (state.has(this.key)) throw errno("EBUSY", "::lineRequest");
      state.set(this.key, s);
    }
  }

  return {
    Chip,
    Line,
    getChipNames: () => Object.keys(chips),
    held: (chip, line) => state.get(key(chip, line)),
  };
}
