/**
 * When each organisation's last event was raised (epoch milliseconds by the raising process's
 * clock), for the `welcome` a socket receives as it joins (issue 13, docs/decisions/0030): a page
 * whose data is newer than that does not need to fetch it again.
 */
export type LastEvents = {
  /** Called before the event is sent, so a socket that missed it finds it recorded. */
  record: (organizationId: string) => Promise<void>;
  /** Null when unknown: the page then fetches again, as if an event had come. */
  lastOf: (organizationId: string) => Promise<number | null>;
};

/**
 * One process (no REDIS_URL, the only way one runs without Redis): its own memory. Events raised
 * before it started, by a process before it, are unknown, but none is later than its start, which
 * is what an organisation without an event since then answers.
 */
export function memoryLastEvents(clock: () => number = Date.now): LastEvents {
  const startedAt = clock();
  const last = new Map<string, number>();
  return {
    record: async (organizationId) => {
      last.set(organizationId, Math.max(last.get(organizationId) ?? 0, clock()));
    },
    lastOf: async (organizationId) => last.get(organizationId) ?? startedAt,
  };
}

/** The two commands of a Redis client (node-redis) this needs. */
type SortedSets = {
  zAdd: (
    key: string,
    member: { score: number; value: string },
    options: { comparison: 'GT' },
  ) => Promise<unknown>;
  zScore: (key: string, member: string) => Promise<unknown>;
};

/** The sorted set holding every organisation's last event time, shared by every process. */
const lastEventsKey = 'imprest:last-event-at';

/**
 * Several processes (REDIS_URL): one sorted set in Redis, scored by time and only ever raised
 * (`ZADD … GT`), so a process whose clock is behind cannot move an organisation's time back. An
 * organisation missing from it (Redis emptied, say) is unknown.
 */
export function redisLastEvents(client: SortedSets, clock: () => number = Date.now): LastEvents {
  return {
    record: async (organizationId) => {
      await client.zAdd(
        lastEventsKey,
        { score: clock(), value: organizationId },
        { comparison: 'GT' },
      );
    },
    lastOf: async (organizationId) => {
      const score = await client.zScore(lastEventsKey, organizationId);
      return score === null ? null : Number(score);
    },
  };
}
