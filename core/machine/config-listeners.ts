// The followers of a machine's configuration: each event goes to every listener in turn, and a
// listener that throws is logged, never allowed to stop the load or the listeners after it.
import type { Logger } from "../logging/index.js";
import type { ConfigEvent, ConfigListener } from "./machine-types.js";

export interface ConfigListeners {
  emit(event: ConfigEvent): void;
  /** Adds a listener; returns the function that removes it. */
  add(listener: ConfigListener): () => void;
}

export function createConfigListeners(log: Logger): ConfigListeners {
  const listeners = new Set<ConfigListener>();
  return {
    emit(event) {
      for (const listener of listeners) {
        try {
          listener(event);
        } catch (thrown) {
          log.warn("a configuration listener failed", { error: String(thrown) });
        }
      }
    },
    add(listener) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
  };
}
