// The generic component and generic service APIs: DoCommand is the whole interface.
import type { Commandable } from "./commandable.js";

export type GenericComponent = Commandable;
export type GenericService = Commandable;
