// The fake generic component and generic service (rdk:builtin:fake): DoCommand echoes its input.
import type { BuildContext, CommandPayload, ModelRegistration, ResourceName } from "../../resource/index.js";
import { FAKE_MODEL, GENERIC_COMPONENT_API, GENERIC_SERVICE_API } from "../api-names.js";
import type { Commandable } from "../apis/commandable.js";

/** An echo; its methods are the class's, shared by every instance rather than made per build. */
class Echo implements Commandable {
  constructor(readonly name: ResourceName) {}

  async doCommand(command: CommandPayload): Promise<CommandPayload> {
    return command;
  }

  async close(): Promise<void> {}
}

async function buildEcho(ctx: BuildContext): Promise<Commandable> {
  return new Echo(ctx.name);
}

const noAttributes = { type: "object", properties: {} };

export const fakeGenericComponentModel: ModelRegistration<Commandable> = {
  api: GENERIC_COMPONENT_API,
  model: FAKE_MODEL,
  attributesSchema: noAttributes,
  build: buildEcho,
};

export const fakeGenericServiceModel: ModelRegistration<Commandable> = {
  api: GENERIC_SERVICE_API,
  model: FAKE_MODEL,
  attributesSchema: noAttributes,
  build: buildEcho,
};
