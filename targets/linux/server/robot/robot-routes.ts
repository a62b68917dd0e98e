// The RobotService on a connect router. Each handler receives the call's operation as its
// CallInfo (GetOperations leaves itself out by it, BlockForOperation and StopAll use its
// cancellation); without the call interceptor installed, a CallInfo made from the connect
// context stands in. SvcErrors leave as ConnectErrors with the same code.
import type { ConnectRouter, HandlerContext, ServiceImpl } from "@connectrpc/connect";
import type { CallInfo, RobotServiceHandlers } from "../../../../core/index.js";
import { RobotService } from "../../../../proto/gen/robot/v1/robot_pb.js";
import { createConnectCall, toConnectError } from "../rpc/index.js";
import { operationOf } from "./call-interceptor.js";

type AnyUnary = (request: unknown, call: CallInfo) => Promise<unknown>;

export function registerRobotService(router: ConnectRouter, handlers: RobotServiceHandlers): void {
  const impl: Record<string, (request: unknown, context: HandlerContext) => Promise<unknown>> = {};
  for (const method of RobotService.methods) {
    const handler = (handlers as unknown as Record<string, AnyUnary>)[method.localName]!;
    impl[method.localName] = async (request, context) => {
      const op = operationOf(context);
      const standIn = op ? undefined : createConnectCall(context, {});
      try {
        return await handler(request, op ?? standIn!.call);
      } catch (thrown) {
        throw toConnectError(thrown);
      } finally {
        standIn?.settle();
      }
    };
  }
  router.service(RobotService, impl as unknown as ServiceImpl<typeof RobotService>);
}
