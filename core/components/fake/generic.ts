// The fake generic component and generic service (rdk:builtin:fake): DoCommand echoes its input.
import type { BuildContext, ModelRegistration } from "../../resource/index.js";
import { FAKE_MODEL, GENERIC_COMPONENT_API, GENERIC_SERVICE_API } from "../api-names.js";
import type { Commandable } from "../apis/commandable.js";

async function buildEcho(ctx: BuildContext): Promise<Commandable> {
  return {
    name: ctx.name,
    async doCommand(command) {
      return command;
    },
    async close() {},
  };
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
