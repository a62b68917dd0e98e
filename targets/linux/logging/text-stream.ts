// The one thing the Linux sinks need from where they write: a way to write a string.
export interface TextStream {
  write(text: string): unknown;
}
