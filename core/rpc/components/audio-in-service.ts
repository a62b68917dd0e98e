// viam.component.audioin.v1.AudioInService: the source's properties, and GetAudio, a server
// stream of its chunks that ends after the duration asked for, when the client leaves, or when
// the source closes. Every response carries the request's id back. A duration that is not 0 or
// more is INVALID_ARGUMENT; the source refuses a codec it cannot produce.
import type { AudioChunkSchema, AudioInService } from "../../../proto/gen/component/audioin/v1/audioin_pb.js";
import type { MessageInitShape } from "@bufbuild/protobuf";
import { AUDIO_IN_API } from "../../components/index.js";
import type { AudioChunk, AudioIn } from "../../components/audio/index.js";
import type { ResourceLookup } from "../resource-lookup.js";
import type { ServiceHandlers } from "./handler-types.js";
import { invalidArgument, resolve } from "./resolve-resource.js";
import { doCommandMethod, noGeometriesMethod } from "./shared-methods.js";

const wireChunk = (c: AudioChunk): MessageInitShape<typeof AudioChunkSchema> => ({
  audioData: c.data,
  audioInfo: c.info,
  startTimestampNanoseconds: c.startNs,
  endTimestampNanoseconds: c.endNs,
  sequence: c.sequence,
});

export function createAudioInService(lookup: ResourceLookup): ServiceHandlers<typeof AudioInService> {
  const source = (name: string, method: keyof AudioIn & string, rpc: string) => resolve<AudioIn>(lookup, AUDIO_IN_API, name, method, rpc);
  return {
    async *getAudio(request, call) {
      const audioIn = source(request.name, "audio", "GetAudio");
      if (!(request.durationSeconds >= 0) || !isFinite(request.durationSeconds)) {
        throw invalidArgument("duration_seconds", `must be 0 (no end) or more, not ${request.durationSeconds}`);
      }
      if (request.previousTimestampNanoseconds < 0n) throw invalidArgument("previous_timestamp_nanoseconds", "must not be negative");
      const stream = audioIn.audio({
        codec: request.codec,
        durationSeconds: request.durationSeconds,
        previousTimestampNs: request.previousTimestampNanoseconds,
        extra: request.extra,
      });
      const forget = call.onCancel(stream.close);
      try {
        for (let chunk = await stream.next(); chunk !== undefined; chunk = await stream.next()) {
          yield { audio: wireChunk(chunk), requestId: request.requestId };
        }
      } finally {
        forget();
        stream.close();
      }
    },
    async getProperties(request) {
      return await source(request.name, "properties", "GetProperties").properties(request.extra);
    },
    doCommand: doCommandMethod(lookup, AUDIO_IN_API),
    getGeometries: noGeometriesMethod(lookup, AUDIO_IN_API),
  };
}
