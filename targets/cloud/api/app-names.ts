// The names people give machines, parts and locations: short, printable, no surprises in a URL,
// a file name or a log line.
import { Code, SvcError } from "../../../core/index.js";

const NAME = /^[A-Za-z0-9][A-Za-z0-9 _.-]{0,62}$/;

/** `name`, checked; InvalidArgument naming `field` otherwise. */
export function checkName(field: string, name: string): string {
  if (!NAME.test(name)) throw new SvcError(Code.InvalidArgument, `${field} ${JSON.stringify(name)}: 1 to 63 letters, digits, spaces, '_', '.' or '-', starting with a letter or digit`);
  return name;
}

/** An id the request must carry; InvalidArgument naming `field` when it is empty. */
export function requireId(field: string, id: string): string {
  if (id === "") throw new SvcError(Code.InvalidArgument, `${field} is required`);
  return id;
}
