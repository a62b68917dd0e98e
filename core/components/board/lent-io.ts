// The IO a board lends to the components wired to it (a motor on its pins). Every pin a
// component opens is recorded, so the board's own GPIO and PWM calls say the pin is busy
// instead of fighting the component for it, and a component asking for a pin the board itself
// drives is told so, whatever the host's backend does about a second claim.
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
}

/**
 * @param boardUse what the board itself uses a pin for ("SetGPIO", an interrupt's name), or
 *   undefined when it leaves the pin alone.
 */
export function createLentIO(base: IOProvider, boardName: string, boardUse: (pin: string) => string | undefined): LentIO {
  const held = new Set<string>();

  const claim = (pin: PinSpecifier): string => {
    const key = String(pin);
    if (held.has(key)) throw new IOError("busy", `pin ${key} of board ${boardName} is already in use by another component`);
    const use = boardUse(key);
    if (use !== undefined) throw new IOError("busy", `pin ${key} of board ${boardName} is in use by the board (${use})`);
    held.add(key);
    return key;
  };
  /** Opens through the base class, giving the pin back if that fails. */
  const openOrGiveBack = <T>(key: string, make: () => T): T => {
    try {
      return make();
    } catch (thrown) {
      held.delete(key);
      throw thrown;
    }
  };

  const provider: { -readonly [K in keyof IOProvider]: IOProvider[K] } = { ...base, name: base.name };
  if (base.Digital) {
    const BaseDigital = base.Digital;
    provider.Digital = class LentDigital implements Digital {
      private readonly key: string;
      private readonly inner: Digital;
      private open = true;
      constructor(options: DigitalOptions) {
        const key = claim(options.pin);
        this.key = key;
        this.inner = openOrGiveBack(key, () => new BaseDigital(options));
      }
      read() {
        return this.inner.read();
      }
      write(value: 0 | 1) {
        this.inner.write(value);
      }
      close() {
        if (!this.open) return;
        this.open = false;
        this.inner.close();
        held.delete(this.key);
      }
    };
  }
  if (base.PWM) {
    const BasePWM = base.PWM;
    provider.PWM = class LentPWM implements PWM {
      private readonly key: string;
      private readonly inner: PWM;
      private open = true;
      constructor(options: PWMOptions) {
        const key = claim(options.pin);
        this.key = key;
        this.inner = openOrGiveBack(key, () => new BasePWM(options));
      }
      get hz() {
        return this.inner.hz;
      }
      get resolution() {
        return this.inner.resolution;
      }
      write(value: number) {
        this.inner.write(value);
      }
      close() {
        if (!this.open) return;
        this.open = false;
        this.inner.close();
        held.delete(this.key);
      }
    };
  }
  return { provider, lent: (pin) => held.has(pin) };
}
