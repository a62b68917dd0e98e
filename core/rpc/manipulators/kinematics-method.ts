// GetKinematics, for every API whose resources have a kinematic chain (arms, gantries): the
// resource's kinematics file and its format. A model without one answers UNIMPLEMENTED.
import { KinematicsFileFormat, type GetKinematicsRequestSchema, type GetKinematicsResponseSchema } from "../../../proto/gen/common/v1/common_pb.js";
import type { KinematicsFile } from "../../components/manipulators/index.js";
import type { ResourceLookup } from "../resource-lookup.js";
import type { UnaryHandler } from "../components/handler-types.js";
import { resolve } from "../components/resolve-resource.js";

interface HasKinematics {
  getKinematics(extra?: Record<string, unknown>): Promise<KinematicsFile>;
}

const formats = { sva: KinematicsFileFormat.SVA, urdf: KinematicsFileFormat.URDF } as const;

export function kinematicsMethod(lookup: ResourceLookup, api: string): UnaryHandler<typeof GetKinematicsRequestSchema, typeof GetKinematicsResponseSchema> {
  return async (request) => {
    const file = await resolve<HasKinematics>(lookup, api, request.name, "getKinematics", "GetKinematics").getKinematics(request.extra);
    return { format: formats[file.format], kinematicsData: file.data };
  };
}
