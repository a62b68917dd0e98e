// Where svc-cloud's one error model meets connect's: whatever a handler raised leaves as a
// ConnectError with its SvcError's code and message, for unary calls and for streams alike.
// Anything unexpected is logged here with its stack and reaches the client as Internal, without
// the details.
import { ConnectError, type Interceptor } from "@connectrpc/connect";
import { Code, SvcError } from "../../../core/index.js";

export function toConnectError(thrown: unknown, log: (line: string) => void): ConnectError {
  if (thrown instanceof ConnectError) return thrown;
  if (thrown instanceof SvcError) return new ConnectError(thrown.message, thrown.code);
  log(`svc-cloud: unexpected error: ${(thrown as Error)?.stack ?? String(thrown)}`);
  return new ConnectError("internal error", Code.Internal);
}

async function* mapped<T>(stream: AsyncIterable<T>, log: (line: string) => void): AsyncIterable<T> {
  try {
    yield* stream;
  } catch (thrown) {
    throw toConnectError(thrown, log);
  }
}

export function createErrorInterceptor(log: (line: string) => void): Interceptor {
  return (next) => async (req) => {
    try {
      const res = await next(req);
      return res.stream ? { ...res, message: mapped(res.message, log) } : res;
    } catch (thrown) {
      throw toConnectError(thrown, log);
    }
  };
}
