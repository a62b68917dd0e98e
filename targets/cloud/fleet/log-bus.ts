// Hands each part's new log entries, as they are stored, to whoever tails that part's logs.
import type { ChunkEntry } from "../storage/log-chunk.js";
import { createTopicBus, type TopicBus } from "./topic-bus.js";

export type LogBus = TopicBus<readonly ChunkEntry[]>;

export function createLogBus(): LogBus {
  return createTopicBus<readonly ChunkEntry[]>();
}
