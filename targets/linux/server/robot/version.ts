// What GetVersion reports on Linux.

export const PLATFORM = "svc-server";

/**
 * The Viam API release whose wire contract our .proto files follow: the one the official SDK in
 * use speaks (a test keeps the two equal).
 */
export const VIAM_API_VERSION = "v0.1.512";
