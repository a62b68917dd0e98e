// The JSON log lines svc-server writes on stdout when it is not on a terminal, parsed, so a test
// can look for what the server said and why.
export interface LogLine {
  level: string;
  logger: string;
  msg: string;
  [field: string]: unknown;
}

/** Every complete JSON line of `text`; anything else (a partial last line) is skipped. */
export function logLines(text: string): LogLine[] {
  const lines: LogLine[] = [];
  for (const line of text.split("\n")) {
    if (!line.startsWith("{")) continue;
    try {
      lines.push(JSON.parse(line) as LogLine);
    } catch {
      // A line still being written.
    }
  }
  return lines;
}
