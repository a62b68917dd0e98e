// The part every built-in resource shares: the free-form DoCommand, always present.
import type { CommandPayload, Resource } from "../../resource/index.js";

/** Free-form extra arguments every API method carries (the wire's `extra` struct). */
export type Extra = CommandPayload;

export interface Commandable extends Resource {
  doCommand(command: CommandPayload): Promise<CommandPayload>;
}
