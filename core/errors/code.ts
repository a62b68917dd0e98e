// The status codes of the whole project, named once: components, the graph and the API handlers
// raise them (through SvcError), and every transport sends them unchanged. They are gRPC's, with
// gRPC's numbers, because that is what every client sees: connect's Code, the grpc-status
// trailer and the SDKs all use the same numbers.

export const Code = {
  Canceled: 1,
  Unknown: 2,
  InvalidArgument: 3,
  DeadlineExceeded: 4,
  NotFound: 5,
  AlreadyExists: 6,
  PermissionDenied: 7,
  ResourceExhausted: 8,
  FailedPrecondition: 9,
  Aborted: 10,
  OutOfRange: 11,
  Unimplemented: 12,
  Internal: 13,
  Unavailable: 14,
  DataLoss: 15,
  Unauthenticated: 16,
} as const;

export type Code = (typeof Code)[keyof typeof Code];

const names: { [code: number]: string } = {};
for (const key of Object.keys(Code) as Array<keyof typeof Code>) {
  // "InvalidArgument" -> "invalid_argument", as the Connect protocol writes codes.
  names[Code[key]] = key.replace(/[A-Z]/g, (c, i: number) => (i === 0 ? "" : "_") + c.toLowerCase());
}

/** A code as the Connect protocol and the logs write it ("invalid_argument"); a number it does not know as its digits. */
export function codeName(code: number): string {
  return names[code] ?? String(code);
}
