// The one error model: the status codes are gRPC's (the same names, numbers and wire names as
// connect's), every IOError code has its status, and anything thrown becomes a SvcError.
import { Code as ConnectCode } from "@connectrpc/connect";
import { codeToString } from "@connectrpc/connect/protocol-connect";
import { describe, expect, it } from "vitest";
import { Code, codeName, errorMessage, SvcError } from "../../core/index.js";
import { IOError, type IOErrorCode } from "../../hal/io.js";

describe("the status codes", () => {
  it("are connect's, name for name and number for number, and written as the Connect protocol writes them", () => {
    const connectNames = Object.keys(ConnectCode).filter((key) => Number.isNaN(Number(key)));
    expect(Object.keys(Code).sort()).toEqual(connectNames.sort());
    for (const [name, code] of Object.entries(Code)) {
      expect(code, name).toBe(ConnectCode[name as keyof typeof ConnectCode]);
      expect(codeName(code), name).toBe(codeToString(code));
    }
    expect(codeName(99)).toBe("99");
  });
});

describe("SvcError.from", () => {
  it("gives every IOError code a status, keeping the message and the IOError as its cause", () => {
    const statuses: Record<IOErrorCode, Code> = {
      busy: Code.FailedPrecondition,
      unsupported: Code.Unimplemented,
      io: Code.Unavailable,
      closed: Code.Unavailable,
      invalid: Code.InvalidArgument,
    };
    for (const [ioCode, status] of Object.entries(statuses)) {
      const io = new IOError(ioCode as IOErrorCode, `pin 7: ${ioCode}`);
      const error = SvcError.from(io);
      expect(error).toMatchObject({ code: status, message: `pin 7: ${ioCode}`, cause: io });
    }
  });

  it("keeps a SvcError as it is and folds anything else in as UNKNOWN", () => {
    const own = new SvcError(Code.NotFound, "no sensor named \"t\"");
    expect(SvcError.from(own)).toBe(own);
    expect(SvcError.from(new RangeError("too far"))).toMatchObject({ code: Code.Unknown, message: "too far" });
    expect(SvcError.from(new TypeError(""))).toMatchObject({ code: Code.Unknown, message: "TypeError" });
    expect(SvcError.from("plain text")).toMatchObject({ code: Code.Unknown, message: "plain text", cause: "plain text" });
  });
});

describe("errorMessage", () => {
  it("reads the message of anything thrown, the error's name when it has none", () => {
    expect(errorMessage(new SvcError(Code.Internal, "boom"))).toBe("boom");
    expect(errorMessage(new TypeError(""))).toBe("TypeError");
    expect(errorMessage(42)).toBe("42");
    expect(errorMessage(undefined)).toBe("undefined");
  });
});
