// The IO a board lends to the components wired to it (a motor on its pins). Every pin a
// component opens is recorded, so the board's own GPIO and PWM calls say the pin is busy
// instead of fighting the component for it, and a component asking for a pin the board itself
// drives is told so, whatever the host's backend does about a second claim. What a component
// drives on a lent pin is remembered, so the board reports the pin as it really is (a motor's
// PWM duty and frequency) rather than as if nobody drove it.
import {
  IOError,
  type Digital,
  type DigitalOptions,
  type IOProvider,
  type PinSpecifier,
  type PWM,
  type PWMOptions,
} from "../../../hal/io.js";

export interface LentIO {
  readonly provider: IOProvider;
  /** True while a component holds the pin through `provider`. */
  lent(pin: string): boolean;
  /** The PWM a component drives on the pin (duty 0..1), or undefined when it holds no PWM there. */
  pwm(pin: string): { hz: number; duty: number } | undefined;
  /**
   * The level of a pin a component holds: what it last wrote to an output (or reads on an
   * input), high for a PWM while its duty is above 0; undefined for a pin nobody holds.
   */
  level(pin: string): boolean | undefined;
}

interface LentHandle {
  level(): boolean;
  pwm?(): { hz: number; duty: number };
}

/** What every pin a board lends shares: the handles held, and how a pin is claimed. */
interface Lender {
  readonly held: Map<string, LentHandle>;
  claim(pin: PinSpecifier, handle: LentHandle): string;
}

/** Opens through the base class, giving the pin back if that fails. */
function openOrGiveBack<T>(lender: Lender, key: string, make: () => T): T {
  try {
    return make();
  } catch (thrown) {
    lender.held.delete(key);
    throw thrown;
  }
}

// The lent classes are made once, here, not per board: a board lends through a small
// constructor that hands its lender and base class to them.
class LentDigital implements Digital {
  private readonly key: string;
  private readonly inner: Digital;
  private open = true;
  private written: 0 | 1 | undefined;
  constructor(
    options: DigitalOptions,
    private readonly lender: Lender,
    Base: new (options: DigitalOptions) => Digital,
  ) {
    const key = lender.claim(options.pin, { level: () => (this.written ?? this.inner.read()) === 1 });
    this.key = key;
    this.inner = openOrGiveBack(lender, key, () => new Base(options));
  }
  read() {
    return this.inner.read();
  }
  write(value: 0 | 1) {
    this.inner.write(value);
    this.written = value;
  }
  close() {
    if (!this.open) return;
    this.open = false;
    this.inner.close();
    this.lender.held.delete(this.key);
  }
}

class LentPWM implements PWM {
  private readonly key: string;
  private readonly inner: PWM;
  private open = true;
  private value = 0;
  constructor(
    options: PWMOptions,
    private readonly lender: Lender,
    Base: new (options: PWMOptions) => PWM,
  ) {
    const duty = () => this.value / (2 ** this.inner.resolution - 1);
    const key = lender.claim(options.pin, { level: () => this.value > 0, pwm: () => ({ hz: this.inner.hz, duty: duty() }) });
    this.key = key;
    this.inner = openOrGiveBack(lender, key, () => new Base(options));
  }
  get hz() {
    return this.inner.hz;
  }
  get resolution() {
    return this.inner.resolution;
  }
  write(value: number) {
    this.inner.write(value);
    this.value = value;
  }
  close() {
    if (!this.open) return;
    this.open = false;
    this.inner.close();
    this.lender.held.delete(this.key);
  }
}

/**
 * @param boardUse what the board itself uses a pin for ("SetGPIO", an interrupt's name), or
 *   undefined when it leaves the pin alone.
 */
export function createLentIO(base: IOProvider, boardName: string, boardUse: (pin: string) => string | undefined): LentIO {
  const held = new Map<string, LentHandle>();
  const lender: Lender = {
    held,
    claim(pin, handle) {
      const key = String(pin);
      if (held.has(key)) throw new IOError("busy", `pin ${key} of board ${boardName} is already in use by another component`);
      const use = boardUse(key);
      if (use !== undefined) throw new IOError("busy", `pin ${key} of board ${boardName} is in use by the board (${use})`);
      held.set(key, handle);
      return key;
    },
  };

  const provider: { -readonly [K in keyof IOProvider]: IOProvider[K] } = { ...base, name: base.name };
  const BaseDigital = base.Digital;
  if (BaseDigital) {
    provider.Digital = function Digital(options: DigitalOptions) {
      return new LentDigital(options, lender, BaseDigital);
    } as unknown as IOProvider["Digital"];
  }
  const BasePWM = base.PWM;
  if (BasePWM) {
    provider.PWM = function PWM(options: PWMOptions) {
      return new LentPWM(options, lender, BasePWM);
    } as unknown as IOProvider["PWM"];
  }
  return {
    provider,
    lent: (pin) => held.has(pin),
    pwm: (pin) => held.get(pin)?.pwm?.(),
    level: (pin) => held.get(pin)?.level(),
  };
}
