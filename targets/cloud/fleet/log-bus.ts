// Hands each part's new log entries, as they are stored, to whoever tails that part's logs.
import type { NewLogRow } from "../storage/logs-store.js";
import { createTopicBus, type TopicBus } from "./topic-bus.js";

export type LogBus = TopicBus<readonly NewLogRow[]>;

export function createLogBus(): LogBus {
  return createTopicBus<readonly NewLogRow[]>();
}
