// Lets everything else the event loop holds (sockets' data, timers) run before going on: for work
// long enough to hold the one thread from the machines. It is a turn of the loop, not time.

export function nextTurn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
