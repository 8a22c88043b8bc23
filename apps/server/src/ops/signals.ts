/** Signals on which a process shuts down gracefully (docs/decisions/0016). */
export const shutdownSignals: NodeJS.Signals[] = ['SIGTERM', 'SIGINT', 'SIGHUP'];
