// API-key login against the real svc-server process configured with an api-key handler: the
// official SDK logs in with a good key and works; a bad key is PERMISSION_DENIED; no credentials
// is UNAUTHENTICATED. A raw @grpc/grpc-js client shows the same at the wire: Authenticate trades
// the key for a token that opens calls as a Bearer header.
import * as VIAM from "@viamrobotics/sdk";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { SensorService } from "../../proto/gen/component/sensor/v1/sensor_pb.js";
import { AuthService } from "../../proto/gen/proto/rpc/v1/auth_pb.js";
import { RobotService } from "../../proto/gen/robot/v1/robot_pb.js";
import { createGrpcJsClient, type GrpcJsClient } from "../helpers/grpc-js-client.js";
import { dialSdk, fullName, sdkDialCause } from "../helpers/sdk-robot.js";
import { startSvcServer, type SvcServerProcess } from "../helpers/svc-server-process.js";

const apiKey = { id: "key-id", key: "secret-key-value" };
const config = {
  auth: { handlers: [{ type: "api-key", config: { [apiKey.id]: apiKey.key } }] },
  components: [{ name: "temp", api: "rdk:component:sensor", model: "fake", attributes: { readings: { celsius: 22 } } }],
};

let server: SvcServerProcess;
let grpcJs: GrpcJsClient;
beforeAll(async () => {
  // The SDK reports each refused dial on console.debug; the tests look at the error itself.
  vi.spyOn(console, "debug").mockImplementation(() => {});
  server = await startSvcServer(config);
  grpcJs = createGrpcJsClient(server.url);
});
afterAll(async () => {
  vi.restoreAllMocks();
  grpcJs?.close();
  await server?.stop();
});

const failure = (promise: Promise<unknown>) => promise.then(() => undefined, (e: unknown) => e);

describe("the official SDK", () => {
  it("with the good key lists the resources and reads the sensor", async () => {
    const robot = await dialSdk(server.sdkHost, apiKey);
    try {
      expect((await robot.resourceNames()).map(fullName)).toEqual(["rdk:component:sensor/temp"]);
      expect(await new VIAM.SensorClient(robot, "temp").getReadings()).toEqual({ celsius: 22 });
    } finally {
      await robot.disconnect();
    }
  });

  it("with a bad key is refused with PERMISSION_DENIED", async () => {
    const error = await failure(dialSdk(server.sdkHost, { id: apiKey.id, key: "not-the-key" }));
    expect(sdkDialCause(error)).toMatchObject({ code: VIAM.Code.PermissionDenied });
  });

  it("with an unknown key id is refused with PERMISSION_DENIED", async () => {
    const error = await failure(dialSdk(server.sdkHost, { id: "someone-else", key: apiKey.key }));
    expect(sdkDialCause(error)).toMatchObject({ code: VIAM.Code.PermissionDenied });
  });

  it("without credentials is refused with UNAUTHENTICATED", async () => {
    const error = await failure(dialSdk(server.sdkHost));
    expect(sdkDialCause(error)).toMatchObject({ code: VIAM.Code.Unauthenticated });
  });
});

describe("@grpc/grpc-js", () => {
  it("is refused without a token, and served with the token Authenticate gives for the key", async () => {
    const names = RobotService.method.resourceNames;
    expect(await failure(grpcJs.call(names, {}))).toMatchObject({ code: VIAM.Code.Unauthenticated });
    expect(await failure(grpcJs.call(SensorService.method.getReadings, { name: "temp" }))).toMatchObject({
      code: VIAM.Code.Unauthenticated,
    });

    const { accessToken } = await grpcJs.call(AuthService.method.authenticate, {
      entity: apiKey.id,
      credentials: { type: "api-key", payload: apiKey.key },
    });
    const bearer = { authorization: `Bearer ${accessToken}` };
    const { resources } = await grpcJs.call(names, {}, bearer);
    expect(resources.map(fullName)).toEqual(["rdk:component:sensor/temp"]);

    expect(await failure(grpcJs.call(names, {}, { authorization: "Bearer forged.token.value" }))).toMatchObject({
      code: VIAM.Code.Unauthenticated,
    });
  });

  it("gets PERMISSION_DENIED from Authenticate for a bad key", async () => {
    const error = await failure(
      grpcJs.call(AuthService.method.authenticate, { entity: apiKey.id, credentials: { type: "api-key", payload: "wrong" } }),
    );
    expect(error).toMatchObject({ code: VIAM.Code.PermissionDenied });
  });

  it("never finds the key in what the server logged", () => {
    expect(server.stdout()).not.toContain(apiKey.key);
    expect(server.stderr()).not.toContain(apiKey.key);
  });
});
