/** Real-time events of decisions §7 and their payloads. */
export type EventPayloads = {
  update_user: { user_id: string };
  request_updated: { request_id: string };
  retirement_updated: { retirement_id: string; request_id: string };
  budget_updated: { code: string };
};

export type EventBus = {
  /** Sends an event to everyone signed in to an organisation; call it after the transaction commits. */
  publish: <E extends keyof EventPayloads>(
    organizationId: string,
    event: E,
    payload: EventPayloads[E],
  ) => void;
};

/** Room of an organisation. */
export function organizationRoom(organizationId: string): string {
  return `org:${organizationId}`;
}

/** An event bus that forwards to a sink once one is attached (socket.io is attached after listen). */
export function createEventBus(): EventBus & { attach: (sink: EventBus['publish']) => void } {
  let sink: EventBus['publish'] | undefined;
  return {
    publish: (organizationId, event, payload) => sink?.(organizationId, event, payload),
    attach: (next) => {
      sink = next;
    },
  };
}
