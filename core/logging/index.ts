// Public face of core/logging.
export {};
