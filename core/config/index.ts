// The machine configuration: types, parsing, defaults and validation.
export type * from "./types.js";
