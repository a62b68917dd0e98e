// viam.component.audioout.v1.AudioOutService: Play answers once the sink has played the audio;
// the sink's properties. What a sink cannot play it refuses, naming the field.
import type { AudioOutService } from "../../../proto/gen/component/audioout/v1/audioout_pb.js";
import { AUDIO_OUT_API } from "../../components/index.js";
import type { AudioOut } from "../../components/audio/index.js";
import type { ResourceLookup } from "../resource-lookup.js";
import type { ServiceHandlers } from "./handler-types.js";
import { resolve } from "./resolve-resource.js";
import { doCommandMethod, noGeometriesMethod } from "./shared-methods.js";

export function createAudioOutService(lookup: ResourceLookup): ServiceHandlers<typeof AudioOutService> {
  const sink = (name: string, method: keyof AudioOut & string, rpc: string) => resolve<AudioOut>(lookup, AUDIO_OUT_API, name, method, rpc);
  return {
    async play(request) {
      const info = request.audioInfo;
      await sink(request.name, "play", "Play").play(
        request.audioData,
        info === undefined ? undefined : { codec: info.codec, sampleRateHz: info.sampleRateHz, numChannels: info.numChannels },
        request.extra,
      );
      return {};
    },
    async getProperties(request) {
      return await sink(request.name, "properties", "GetProperties").properties(request.extra);
    },
    doCommand: doCommandMethod(lookup, AUDIO_OUT_API),
    getGeometries: noGeometriesMethod(lookup, AUDIO_OUT_API),
  };
}
