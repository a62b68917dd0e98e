// A small API for transport tests: a SensorService whose "temp" sensor reads fixed values (an
// empty name is INVALID_ARGUMENT, "cold" is UNAVAILABLE, any other name NOT_FOUND), the one
// RobotService call the SDK makes when it dials, and the clients that reach it over each protocol.
import { fromBinary, fromJson, toBinary, type JsonValue } from "@bufbuild/protobuf";
import { ValueSchema } from "@bufbuild/protobuf/wkt";
import { Code, ConnectError, createClient, type ConnectRouter, type Transport } from "@connectrpc/connect";
import { createGrpcTransport, createGrpcWebTransport } from "@connectrpc/connect-node";
import * as grpc from "@grpc/grpc-js";
import {
  GetReadingsRequestSchema,
  GetReadingsResponseSchema,
  type GetReadingsRequest,
  type GetReadingsResponse,
} from "../../../proto/gen/common/v1/common_pb.js";
import { SensorService } from "../../../proto/gen/component/sensor/v1/sensor_pb.js";
import { RobotService } from "../../../proto/gen/robot/v1/robot_pb.js";

export const tempReadings: Record<string, JsonValue> = { celsius: 21.5, label: "bench", ok: true };

export function sensorRoutes(router: ConnectRouter): void {
  router.service(SensorService, {
    getReadings(req) {
      if (req.name === "") throw new ConnectError("name: must not be empty", Code.InvalidArgument);
      if (req.name === "cold") throw new ConnectError("température: capteur pas prêt (warming up)", Code.Unavailable);
      if (req.name !== "temp") {
        throw new ConnectError(`resource "rdk:component:sensor/${req.name}" not found`, Code.NotFound);
      }
      const readings: GetReadingsResponse["readings"] = {};
      for (const [key, value] of Object.entries(tempReadings)) readings[key] = fromJson(ValueSchema, value);
      return { readings };
    },
  });
  // The SDK asks for operations when it dials and as its heartbeat.
  router.service(RobotService, { getOperations: () => ({}) });
}

/** Readings as plain JSON, whichever client decoded them. */
export function readingsJson(response: GetReadingsResponse): Record<string, JsonValue> {
  const out: Record<string, JsonValue> = {};
  for (const [key, value] of Object.entries(response.readings)) {
    const kind = value.kind;
    out[key] = kind.case === "numberValue" || kind.case === "stringValue" || kind.case === "boolValue" ? kind.value : null;
  }
  return out;
}

export function sensorClient(transport: Transport) {
  return createClient(SensorService, transport);
}

export function grpcTransport(baseUrl: string, nodeOptions?: { ca?: Buffer }): Transport {
  return createGrpcTransport({ baseUrl, nodeOptions });
}

export function grpcWebTransport(baseUrl: string, nodeOptions?: { ca?: Buffer }): Transport {
  return createGrpcWebTransport({ baseUrl, httpVersion: "1.1", nodeOptions });
}

/** A @grpc/grpc-js client calling any unary method with our generated codecs. */
export function grpcJsCaller(address: string, credentials = grpc.credentials.createInsecure()) {
  const client = new grpc.Client(address, credentials);
  const call = (path: string, request: GetReadingsRequest) =>
    new Promise<GetReadingsResponse>((resolve, reject) => {
      client.makeUnaryRequest(
        path,
        (message: GetReadingsRequest) => Buffer.from(toBinary(GetReadingsRequestSchema, message)),
        (bytes: Buffer) => fromBinary(GetReadingsResponseSchema, bytes),
        request,
        (error, response) => (error ? reject(error) : resolve(response!)),
      );
    });
  return { call, close: () => client.close() };
}

export const getReadingsPath = "/viam.component.sensor.v1.SensorService/GetReadings";
