/** Real-time events of decisions §7 and their payloads. */
export type EventPayloads = {
  update_user: { user_id: string };
  request_updated: { request_id: string };
  retirement_updated: { retirement_id: string; request_id: string };
  budget_updated: { code: string };
  /** The organisation's exchange rates changed (docs/decisions/0034); the web reads them again. */
  exchange_rates_updated: Record<string, never>;
  /** The organisation's approval matrix changed (docs/decisions/0035); the web reads it again. */
  approval_matrix_updated: Record<string, never>;
};

export type EventBus = {
  /** Sends an event to everyone signed in to an organisation; call it after the transaction commits. */
  publish: <E extends keyof EventPayloads>(
    organizationId: string,
    event: E,
    payload: EventPayloads[E],
  ) => void;
  /**
   * Disconnects every socket of a user whose sessions just ended (docs/decisions/0010), in every
   * server process; call it after the transaction that raised their token version commits.
   */
  endSessions: (userId: string) => void;
  /** Disconnects the sockets of one session (sign-out), in every server process. */
  endSession: (userId: string, sessionId: string) => void;
};

/** Where ended sessions are sent: every socket of a user, or only those of one session. */
export type SessionEndSink = (userId: string, sessionId?: string) => void;

/** Room of an organisation. */
export function organizationRoom(organizationId: string): string {
  return `org:${organizationId}`;
}

/** Room of one user's sockets. */
export function userRoom(userId: string): string {
  return `user:${userId}`;
}

/** Room of the sockets of one session (one sign-in). */
export function sessionRoom(sessionId: string): string {
  return `session:${sessionId}`;
}

/** An event bus that forwards to sinks once attached (socket.io is attached after listen). */
export function createEventBus(): EventBus & {
  attach: (sink: EventBus['publish']) => void;
  attachSessionEnd: (sink: SessionEndSink) => void;
} {
  let sink: EventBus['publish'] | undefined;
  let sessionSink: SessionEndSink | undefined;
  return {
    publish: (organizationId, event, payload) => sink?.(organizationId, event, payload),
    endSessions: (userId) => sessionSink?.(userId),
    endSession: (userId, sessionId) => sessionSink?.(userId, sessionId),
    attach: (next) => {
      sink = next;
    },
    attachSessionEnd: (next) => {
      sessionSink = next;
    },
  };
}
