// D-Bus interfaces described as tables (methods with named arguments, signals, properties), and
// the shape of a method call as the object server hands it to a handler.

export interface ArgSpec {
  name: string;
  type: string;
}
export interface MethodSpec {
  name: string;
  in: ArgSpec[];
  out: ArgSpec[];
}
export interface SignalSpec {
  name: string;
  args: ArgSpec[];
}
export interface PropertySpec {
  name: string;
  type: string;
  access: "read" | "readwrite";
}
export interface InterfaceSpec {
  name: string;
  methods: MethodSpec[];
  signals: SignalSpec[];
  properties: PropertySpec[];
}

export interface MethodCall {
  path: string;
  interface: string;
  member: string;
  sender: string;
  args: unknown[];
}

/** Returns the reply's body (one element per out argument); throw `DBusError` to fail. */
export type MethodHandler = (call: MethodCall) => unknown[] | Promise<unknown[]>;
