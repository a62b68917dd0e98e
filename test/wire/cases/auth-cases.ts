// A machine with an API key: the key traded for a token (Authenticate) opens calls as a Bearer
// token; a wrong key, a forged token or none at all is refused, and a caller without credentials
// hears UNAUTHENTICATED before it learns whether a method exists.
import { SensorService } from "../../../proto/gen/component/sensor/v1/sensor_pb.js";
import { phantomMethod } from "../phantom-method.js";
import { unknownPath } from "./call-cases.js";
import { expectStatus, expectValue, type WireCase } from "../wire-case.js";
import { API_KEY, READINGS } from "../wire-machine.js";

const getReadings = SensorService.method.getReadings;
const unknownMethod = phantomMethod(getReadings, "viam.component.sensor.v1.SensorService", "Calibrate");
const authenticationRequired =
  'authentication required: send "authorization: Bearer <token>" with a token from proto.rpc.v1.AuthService/Authenticate';

export const authCases: WireCase[] = [
  {
    name: "auth: the API key traded for a token, then calls with Bearer",
    machine: "keys",
    async run({ kind, open }) {
      const client = open({ apiKey: API_KEY });
      expectValue(kind, await client.unary({ method: getReadings, request: { name: "temp" } }), { readings: READINGS });
    },
  },
  {
    name: "auth: with the token, an unknown method is UNIMPLEMENTED",
    machine: "keys",
    needs: ["early-answer", "error-status"],
    async run({ kind, open }) {
      const outcome = await open({ apiKey: API_KEY }).unary({ method: unknownMethod, request: { name: "temp" } });
      expectStatus(kind, outcome, 12, "unknown method Calibrate for service viam.component.sensor.v1.SensorService", unknownPath);
    },
  },
  {
    name: "auth: a wrong key or an unknown key id is PERMISSION_DENIED from Authenticate",
    machine: "keys",
    async run({ kind, open }) {
      for (const apiKey of [{ id: API_KEY.id, key: "not-the-key" }, { id: "someone-else", key: API_KEY.key }]) {
        const outcome = await open({ apiKey }).unary({ method: getReadings, request: { name: "temp" } });
        // Authenticate runs as an operation, so its refusal names one.
        expectStatus(kind, outcome, 7, "invalid credentials", { opid: true });
      }
    },
  },
  {
    name: "auth: a forged token is UNAUTHENTICATED, for a served method and an unknown one",
    machine: "keys",
    needs: ["early-answer"],
    async run({ kind, open }) {
      const client = open({ token: "forged.token.value" });
      for (const method of [getReadings, unknownMethod]) {
        const outcome = await client.unary({ method, request: { name: "temp" } });
        expectStatus(kind, outcome, 16, "unauthenticated: bad token signature", { opid: false });
      }
    },
  },
  {
    name: "auth: no credentials is UNAUTHENTICATED, before an unknown method is UNIMPLEMENTED",
    machine: "keys",
    needs: ["anonymous", "early-answer"],
    async run({ kind, open }) {
      const client = open();
      for (const method of [getReadings, unknownMethod]) {
        const outcome = await client.unary({ method, request: { name: "temp" } });
        expectStatus(kind, outcome, 16, authenticationRequired, { opid: false });
      }
    },
  },
];
