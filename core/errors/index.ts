// Public face of core/errors: the status codes, the one error class and the message of anything thrown.
export { Code, codeName } from "./code.js";
export { SvcError } from "./svc-error.js";
export { errorMessage } from "./error-message.js";
