// One row of the case table: what to do against which machine, what a client must be able to
// express for it, and what every client must then see. Expectations that differ by protocol
// (Connect's HTTP statuses) are computed here from the protocol, so a case is written once.
import { codeToHttpStatus } from "@connectrpc/connect/protocol-connect";
import { expect } from "vitest";
import { eventually } from "../helpers/eventually.js";
import type { Capability, WireClient, WireClientKind, WireCredentials, WireOutcome } from "./wire-client.js";
import type { MachineName, WireMachine } from "./wire-machine.js";

export interface WireCaseContext {
  readonly kind: WireClientKind;
  readonly machine: WireMachine;
  /** A client of the kind under test for the case's machine; closed after the case. */
  open(credentials?: WireCredentials): WireClient;
}

export interface WireCase {
  readonly name: string;
  readonly machine: MachineName;
  /** What a client must be able to express; a client that cannot says why in its row. */
  readonly needs?: readonly Capability[];
  run(context: WireCaseContext): Promise<void>;
}

export const OPERATION_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export interface StatusExpectation {
  /** True: the answer names its operation (`opid`); false: it has none; undefined: not looked at. */
  readonly opid?: boolean;
  /** A server-streaming call: Connect answers those with HTTP 200 and the error in the stream. */
  readonly stream?: boolean;
  /** Connect's HTTP status, when it is not the one connect maps the code to. */
  readonly connectHttpStatus?: number;
}

/** The status the client reports, and the HTTP status when the client sees it. */
export function expectStatus(kind: WireClientKind, outcome: WireOutcome, code: number, message: string, options: StatusExpectation = {}) {
  expect({ code: outcome.code, message: outcome.message }).toEqual({ code, message });
  if (options.opid === true) expectOperationId(outcome);
  if (options.opid === false) expect(outcome.metadata.opid).toBeUndefined();
  if (outcome.httpStatus !== undefined) {
    const unaryConnect = kind.protocol === "connect" && !options.stream;
    expect(outcome.httpStatus).toBe(unaryConnect && code !== 0 ? (options.connectHttpStatus ?? codeToHttpStatus(code)) : 200);
  }
  // No client reports error details: svc sends none today (no grpc-status-details-bin, no
  // Connect `details`).
  expect(outcome.details).toEqual([]);
}

/**
 * The operation id the answer names. A stream's failure names it twice, in the headers and again
 * in the trailers, which clients that merge the two (connect, the SDK) show as "id, id".
 */
export function expectOperationId(outcome: WireOutcome): string {
  const ids = (outcome.metadata.opid ?? "").split(", ");
  for (const id of ids) expect(id).toMatch(OPERATION_ID);
  expect(new Set(ids).size).toBe(1);
  return ids[0]!;
}

/** A successful unary call with this response, naming its operation. */
export function expectValue(kind: WireClientKind, outcome: WireOutcome, value: unknown) {
  expectStatus(kind, outcome, 0, "", { opid: true });
  expect(outcome.value).toEqual(value);
}

/** Waits until nothing but GetOperations itself runs on the machine, and the motor is off. */
export async function expectSettled(machine: WireMachine, motor = "wheel") {
  await eventually(async () => ((await machine.observer.operations()).length === 0 ? true : undefined), "no operation left running");
  expect(await machine.observer.motor.isPowered({ name: motor })).toMatchObject({ isOn: false, powerPct: 0 });
}

/** The server still answers another client, on a connection of its own. */
export async function expectStillServing(machine: WireMachine) {
  const { readings } = await machine.observer.sensor.getReadings({ name: "temp" });
  expect(Object.keys(readings).sort()).toEqual(["celsius", "room"]);
}
