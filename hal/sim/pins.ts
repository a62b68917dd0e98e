// The simulated board's pins: what each one is driven to, what is wired to it and who watches
// it. Wiring (a pin looped to another) and outside levels set by a test decide what an input
// reads; watchers get their edges on a microtask, as real edge interrupts arrive later.
import { IOError, type DigitalMode, type Edge, type PinSpecifier } from "../io.js";

interface PinState {
  owner: string | undefined;
  mode: DigitalMode | undefined;
  driven: 0 | 1;
  outside: 0 | 1 | undefined;
  level: 0 | 1;
  watchers: Array<{ edge: Edge; fire: () => void }>;
}

export interface SimPins {
  claim(pin: PinSpecifier, owner: string): PinState;
  release(pin: PinSpecifier, owner: string): void;
  setMode(pin: PinSpecifier, mode: DigitalMode): void;
  drive(pin: PinSpecifier, level: 0 | 1): void;
  read(pin: PinSpecifier): 0 | 1;
  watch(pin: PinSpecifier, edge: Edge, fire: () => void): () => void;
  /** A level applied from outside the board (a button, a sensor output); undefined floats it. */
  setOutside(pin: PinSpecifier, level: 0 | 1 | undefined): void;
  owner(pin: PinSpecifier): string | undefined;
  has(pin: PinSpecifier): boolean;
}

export function createSimPins(names: readonly string[], loops: ReadonlyArray<readonly [PinSpecifier, PinSpecifier]>): SimPins {
  const pins = new Map<string, PinState>();
  for (const name of names) {
    pins.set(name, { owner: undefined, mode: undefined, driven: 0, outside: undefined, level: 0, watchers: [] });
  }
  const get = (pin: PinSpecifier): PinState => {
    const state = pins.get(String(pin));
    if (!state) throw new IOError("invalid", `the simulated board has no pin ${JSON.stringify(String(pin))}`);
    return state;
  };
  const partners = new Map<PinState, PinState>();
  for (const [a, b] of loops) {
    partners.set(get(a), get(b));
    partners.set(get(b), get(a));
  }
  const isOutput = (s: PinState) => s.mode === "output" || s.mode === "output-open-drain";

  // What a pin sees: its own drive when an output, else its wired partner's output, else the
  // outside level, else its pull.
  const levelOf = (s: PinState): 0 | 1 => {
    if (isOutput(s)) return s.mode === "output-open-drain" && s.driven === 1 ? pulled(s) : s.driven;
    const partner = partners.get(s);
    if (partner && isOutput(partner)) return partner.mode === "output-open-drain" && partner.driven === 1 ? pulled(s) : partner.driven;
    if (s.outside !== undefined) return s.outside;
    return pulled(s);
  };
  const pulled = (s: PinState): 0 | 1 => (s.mode === "input-pull-up" ? 1 : 0);

  const settle = (s: PinState) => {
    const before = s.level;
    s.level = levelOf(s);
    if (before === s.level) return;
    const edge: Edge = s.level === 1 ? "rising" : "falling";
    for (const w of s.watchers) {
      if (w.edge === "both" || w.edge === edge) {
        const fire = w.fire;
        void Promise.resolve().then(fire);
      }
    }
  };
  const settleAround = (s: PinState) => {
    settle(s);
    const partner = partners.get(s);
    if (partner) settle(partner);
  };

  return {
    claim(pin, owner) {
      const s = get(pin);
      if (s.owner !== undefined) throw new IOError("busy", `pin ${String(pin)} is already in use by ${s.owner}`);
      s.owner = owner;
      return s;
    },
    release(pin, owner) {
      const s = get(pin);
      if (s.owner !== owner) return;
      s.owner = undefined;
      s.mode = undefined;
      s.watchers = [];
      settleAround(s);
    },
    setMode(pin, mode) {
      const s = get(pin);
      s.mode = mode;
      settleAround(s);
    },
    drive(pin, level) {
      const s = get(pin);
      s.driven = level;
      settleAround(s);
    },
    read(pin) {
      return get(pin).level;
    },
    watch(pin, edge, fire) {
      const s = get(pin);
      const watcher = { edge, fire };
      s.watchers.push(watcher);
      return () => {
        s.watchers = s.watchers.filter((w) => w !== watcher);
      };
    },
    setOutside(pin, level) {
      const s = get(pin);
      s.outside = level;
      settleAround(s);
    },
    owner(pin) {
      return get(pin).owner;
    },
    has(pin) {
      return pins.has(String(pin));
    },
  };
}
