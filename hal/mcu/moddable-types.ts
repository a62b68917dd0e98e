// What the MCU provider needs to know of Moddable's ECMA-419 classes: a constructor taking one
// options object, static constants for modes and edges, and the methods each kind has. Kept
// loose on purpose; the host's own typings are not available where the core is built.

export interface ModdableInstance {
  read(arg?: unknown, stop?: boolean): unknown;
  write(value: unknown, stop?: boolean): unknown;
  close(): void;
  readonly hz?: number;
  readonly resolution?: number;
  [method: string]: unknown;
}

export type ModdableClass = (new (options: Record<string, unknown>) => ModdableInstance) & {
  readonly [constant: string]: unknown;
};
