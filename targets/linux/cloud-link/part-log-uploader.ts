// A program's log queue uploaded to its part's logs in svc-cloud (RobotService.Log), as svc-server
// and svc-agent both do. A batch svc-cloud refuses is a warning; a failed upload is said at debug
// only: whoever follows the connection tells when svc-cloud is away, and a line per failure would
// itself wait in the queue. A call in flight ends with `signal`; its entries stay queued.
import { hostname } from "node:os";
import type { Clock, Logger } from "../../../core/index.js";
import { createLogUploader, type LogUploader, type OfflineLogQueue } from "../logging/index.js";
import type { CloudConnection } from "./cloud-connection.js";

export function uploadToPartLogs(connection: CloudConnection, partId: string, queue: OfflineLogQueue, options: { clock: Clock; log: Logger; signal: AbortSignal }): LogUploader {
  const { log, signal } = options;
  return createLogUploader({
    queue,
    send: async (logs) => void (await connection.robot.log({ id: partId, logs }, { signal })),
    host: hostname(),
    clock: options.clock,
    onProblem: (problem, kind) => (kind === "refused" ? log.warn(problem) : log.debug(problem)),
  });
}
