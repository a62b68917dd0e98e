// The input controller API: a set of controls (buttons, axes, pedals) that produce events. Each
// event has a type ("ButtonPress", "PositionChangeAbs", ...), the control it happened on and a
// value (0 or 1 for a button, -1 to 1 for an axis). A client reads the controls and the latest
// event of each, injects events, and follows the events it is interested in.
import type { Commandable, Extra } from "../apis/commandable.js";

export interface InputEvent {
  /** When it happened, in the clock's milliseconds since the epoch. */
  timeMs: number;
  /** Its type, one of EVENT_TYPES. */
  event: string;
  control: string;
  value: number;
}

export type TriggeredEvent = Omit<InputEvent, "timeMs"> & { timeMs?: number };

/** The event types a follower wants from one control. */
export interface EventInterest {
  control: string;
  events: readonly string[];
}

export interface EventFollower {
  /** Called with each event of interest, in order. */
  event(event: InputEvent): void;
  /** Called once when the controller can send no more (it closed); nothing follows. */
  end(error: Error): void;
}

export interface InputController extends Commandable {
  controls(extra?: Extra): Promise<string[]>;
  /** The latest event of each control that has had one. */
  events(extra?: Extra): Promise<InputEvent[]>;
  /** Injects an event as if the control had produced it; without a time it happens now. */
  triggerEvent(event: TriggeredEvent, extra?: Extra): Promise<void>;
  /** Sends `follower` the events of `interests` from now on; returns the function that stops. */
  follow(interests: readonly EventInterest[], follower: EventFollower): () => void;
}
