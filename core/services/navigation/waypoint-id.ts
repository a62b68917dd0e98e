// Waypoint ids shaped as Viam's navigation stores make them: MongoDB ObjectIDs, 24 hexadecimal
// digits holding the seconds since the epoch, five bytes marking the service instance that made
// it and a counter. Clients of the Viam API parse waypoint ids as ObjectIDs (the Go SDK does),
// so ids of any other shape would break them.

const hex = (value: number, digits: number) => (value >>> 0).toString(16).padStart(digits, "0").slice(-digits);

/** FNV-1a, 32 bits: enough to tell service instances apart in their ids, not a secret. */
function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

export interface WaypointIdOptions {
  /** Milliseconds since the epoch, now. */
  now: () => number;
  /** What tells this instance from others: its name and when it was built. */
  instance: string;
}

/** Makes the ids of one service instance, each different from every one before it. */
export function createWaypointIds(options: WaypointIdOptions): () => string {
  const mark = hex(fnv1a(options.instance), 8) + hex(fnv1a(`${options.instance}#`), 2);
  let counter = 0;
  return () => {
    counter = (counter + 1) & 0xffffff;
    return hex(Math.floor(options.now() / 1000), 8) + mark + hex(counter, 6);
  };
}

/** True for 24 hexadecimal digits, the only shape a waypoint id has. */
export function isWaypointId(id: string): boolean {
  return /^[0-9a-fA-F]{24}$/.test(id);
}
