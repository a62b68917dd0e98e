// Public face of core/resource.
export {};
