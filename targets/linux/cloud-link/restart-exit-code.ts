// The exit status of an svc-server that stopped to be started again (a restart svc-cloud asked
// for): 75, EX_TEMPFAIL, "try again". Its systemd unit (Restart=always) and svc-agent start it
// again; anything else that runs it should too.
export const RESTART_EXIT_CODE = 75;
