// The event types an input controller speaks of, as Viam's clients name them, and which of them
// an interest in a type covers: "AllEvents" covers every type, "ButtonChange" a press and a
// release (both are asked for, never sent by a real controller).
import type { EventInterest, InputEvent } from "./input-controller.js";

export const ALL_EVENTS = "AllEvents";
export const BUTTON_CHANGE = "ButtonChange";
export const POSITION_CHANGE_ABS = "PositionChangeAbs";

export const EVENT_TYPES: readonly string[] = [
  ALL_EVENTS,
  "Connect",
  "Disconnect",
  "ButtonPress",
  "ButtonRelease",
  "ButtonHold",
  BUTTON_CHANGE,
  POSITION_CHANGE_ABS,
  "PositionChangeRel",
];

/** Whether `interest` asks for `event`. */
export function interestedIn(interest: EventInterest, event: InputEvent): boolean {
  if (interest.control !== event.control) return false;
  for (const wanted of interest.events) {
    if (wanted === event.event || wanted === ALL_EVENTS) return true;
    if (wanted === BUTTON_CHANGE && (event.event === "ButtonPress" || event.event === "ButtonRelease")) return true;
  }
  return false;
}
