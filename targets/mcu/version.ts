// What GetVersion reports on the MCU.

export const MCU_PLATFORM = "svc-mcu";

/** This build's version (the package's). */
export const SVC_VERSION = "0.1.0";

/** The Viam API release whose wire contract is served: the server's (a test keeps them equal). */
export const VIAM_API_VERSION = "v0.1.512";
