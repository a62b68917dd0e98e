// The MCU bundle in XS as a device holds it. A firmware preloads svc-mcu: Moddable's linker runs
// the module at build time and keeps what it made in flash, where (xs/tools/xslSlot.c,
// xsl.c) every function and each constructor's prototype is frozen, every Map, Set, WeakMap and
// WeakSet made then is read-only, no object made then can be a WeakMap key or WeakSet value, and
// the built-in prototypes (Object, Array, Function, Map, ...) are frozen. Plain objects, arrays
// and module variables stay writable (copied to RAM when written).
//
// Here the bundle runs in xsnap's XS inside a strict function, its module-level bindings are
// gathered (their names come from running the bundle once in a Node `vm` context), and then the
// same freezing is applied to everything reachable from them before the machine boots; Map,
// Set, WeakMap and WeakSet are watched from the start so those made while "preloading" are
// known even when only a closure holds them. A write the device would refuse throws the
// TypeError it throws there.
import { runInNewContext } from "node:vm";
import { buildTargetBundle } from "../../tools/mcu-shim/build-bundle.mjs";

/** Runs in XS first: the collections made while preloading become read-only when it ends. */
const prelude = String.raw`(function () {
  "use strict";
  const romCollections = new WeakSet();
  const rom = new WeakSet();
  const has = WeakSet.prototype.has;
  const add = WeakSet.prototype.add;
  let preloading = true;
  const kinds = [[Map, ["set", "delete", "clear"]], [Set, ["add", "delete", "clear"]], [WeakMap, ["set", "delete"]], [WeakSet, ["add", "delete"]]];
  for (const [Kind, methods] of kinds) {
    const weak = Kind === WeakMap || Kind === WeakSet;
    const held = Kind === WeakMap ? "key" : "value";
    for (const method of methods) {
      const original = Kind.prototype[method];
      const guarded = {
        [method](...args) {
          if (!preloading && has.call(romCollections, this)) throw new TypeError("this: read-only " + Kind.name + " instance");
          if (!preloading && weak && method !== "delete" && has.call(rom, args[0])) throw new TypeError(held + ": read-only");
          return original.apply(this, args);
        },
      }[method];
      Object.defineProperty(Kind.prototype, method, { value: guarded, writable: true, configurable: true });
    }
    const Recorded = {
      [Kind.name]: class extends Kind {
        constructor(entries) {
          super(entries);
          if (preloading) add.call(romCollections, this);
        }
      },
    }[Kind.name];
    Object.defineProperty(globalThis, Kind.name, { value: Recorded, writable: true, configurable: true });
  }

  const originals = kinds.map(([Kind]) => Kind);
  const brands = originals.map((Kind) => Kind.prototype.has);
  /** Whether a value is itself a Map, Set, WeakMap or WeakSet (not merely inheriting from one). */
  const isCollection = (value, index) => {
    try {
      brands[index].call(value, undefined);
      return true;
    } catch {
      return false;
    }
  };
  function freezeBuiltIns() {
    const seen = [];
    const freeze = (o) => {
      if ((typeof o === "object" || typeof o === "function") && o !== null && !seen.includes(o)) {
        seen.push(o);
        Object.freeze(o);
      }
    };
    for (const name of Object.getOwnPropertyNames(globalThis)) {
      const value = globalThis[name];
      if (typeof value === "function" && /^[A-Z]/.test(name) && value.prototype) {
        freeze(value.prototype);
        freeze(Object.getPrototypeOf(value.prototype));
      }
    }
    for (const Kind of originals) freeze(Kind.prototype);
    for (const o of [Math, JSON, Reflect, Function.prototype, Object.prototype]) freeze(o);
    const iteratorOf = (x) => Object.getPrototypeOf(x[Symbol.iterator]());
    for (const x of [[], new Map(), new Set(), ""]) {
      freeze(iteratorOf(x));
      freeze(Object.getPrototypeOf(iteratorOf(x)));
    }
    freeze(Object.getPrototypeOf(Uint8Array.prototype));
    freeze(Object.getPrototypeOf(async function () {}));
    freeze(Object.getPrototypeOf(function* () {}));
  }

  /** Everything reachable from the module's bindings: functions frozen, collections read-only. */
  function hold(roots) {
    const pending = roots.slice();
    const visited = new WeakSet();
    const visit = (value) => {
      if ((typeof value === "object" || typeof value === "function") && value !== null && !has.call(visited, value)) {
        add.call(visited, value);
        pending.push(value);
      }
    };
    let held = 0;
    while (pending.length > 0) {
      const value = pending.pop();
      if ((typeof value !== "object" && typeof value !== "function") || value === null) continue;
      add.call(visited, value);
      add.call(rom, value);
      held++;
      if (typeof value === "function") {
        Object.freeze(value);
        const prototype = Object.getOwnPropertyDescriptor(value, "prototype");
        if (prototype && typeof prototype.value === "object" && prototype.value !== null) Object.freeze(prototype.value);
      }
      const collection = originals.find((_, index) => isCollection(value, index));
      if (collection === originals[0]) originals[0].prototype.forEach.call(value, (v, k) => (visit(k), visit(v)));
      if (collection === originals[1]) originals[1].prototype.forEach.call(value, (v) => visit(v));
      if (collection) add.call(romCollections, value);
      visit(Object.getPrototypeOf(value));
      for (const key of Reflect.ownKeys(value)) {
        const d = Object.getOwnPropertyDescriptor(value, key);
        if ("value" in d) visit(d.value);
        else (visit(d.get), visit(d.set));
      }
    }
    return held;
  }

  globalThis.preloadHolder = {
    finish(result) {
      globalThis.svcMcu = result.exports;
      const held = hold(result.roots.concat([result.exports]));
      freezeBuiltIns();
      preloading = false;
      return held;
    },
  };
})();`;

/** The bundle's module-level binding names: run once, sloppily, in a throwaway Node context. */
function moduleBindings(body: string): string[] {
  const context: Record<string, unknown> = { TextEncoder, TextDecoder };
  const before = new Set(Object.getOwnPropertyNames(context));
  runInNewContext(body, context);
  return Object.getOwnPropertyNames(context).filter((name) => !before.has(name));
}

/**
 * The script that evaluates the bundle as a strict module would and hands its bindings and
 * exports to the prelude's holder. `source` is the ES module bundle (dist/mcu/svc-mcu.js).
 */
export function preloadScripts(source: string): { prelude: string; bundle: string } {
  const at = source.lastIndexOf("export{");
  if (at < 0) throw new Error("the MCU bundle has no export statement at its end");
  const body = source.slice(0, at);
  const exported = source
    .slice(at + "export{".length, source.indexOf("}", at))
    .split(",")
    .map((item) => item.trim().split(/\s+as\s+/))
    .map(([local, name]) => `${JSON.stringify(name ?? local)}: ${local}`);
  const names = moduleBindings(body);
  const bundle = `globalThis.preloadHolder.finish((function () {"use strict";\n${body}\n;return { exports: { ${exported.join(", ")} }, roots: [${names.join(", ")}] };})());`;
  return { prelude, bundle };
}

/** The current bundle, built in memory, as preload scripts. */
export async function currentPreloadScripts(): Promise<{ prelude: string; bundle: string }> {
  return preloadScripts(await buildTargetBundle());
}
