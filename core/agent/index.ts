// Public face of core/agent: the agent's pure policy (version specs and the release index, the
// settings layers, server supervision and rollback, provisioning). Time is always injected.
export {};
