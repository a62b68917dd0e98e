// The engine's listeners: each event goes to every listener, and a listener that throws is
// logged, never allowed to stop the engine or the other listeners.
import { type LoggerLike } from "../resource/index.js";
import { errorMessage } from "../errors/index.js";

export interface EventHub<E> {
  emit(event: E): void;
  /** Adds a listener; returns the function that removes it. */
  on(listener: (event: E) => void): () => void;
}

export function createEventHub<E>(logger: LoggerLike): EventHub<E> {
  const listeners = new Set<(event: E) => void>();
  return {
    emit(event) {
      listeners.forEach((listener) => {
        try {
          listener(event);
        } catch (thrown) {
          logger.warn(`a graph event listener failed: ${errorMessage(thrown)}`);
        }
      });
    },
    on(listener) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
  };
}
