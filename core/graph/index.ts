// Public face of core/graph.
export {};
