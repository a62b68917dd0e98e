// A call's context values (connect's ContextValues) as one small object whose methods are shared,
// where connect's own createContextValues makes three closures for every call.
import type { ContextKey, ContextValues } from "@connectrpc/connect";

class CallValues implements ContextValues {
  get<T>(key: ContextKey<T>): T {
    const own = this as unknown as Record<symbol, T>;
    return key.id in own ? own[key.id]! : key.defaultValue;
  }

  set<T>(key: ContextKey<T>, value: T): this {
    (this as unknown as Record<symbol, T>)[key.id] = value;
    return this;
  }

  delete(key: ContextKey<unknown>): this {
    delete (this as unknown as Record<symbol, unknown>)[key.id];
    return this;
  }
}

export function createCallValues(): ContextValues {
  return new CallValues();
}
