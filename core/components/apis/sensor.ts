// The sensor API: named readings and nothing else.
import type { ReadingsSource } from "../../resource/index.js";
import type { Commandable } from "./commandable.js";

export interface Sensor extends Commandable, ReadingsSource {}
