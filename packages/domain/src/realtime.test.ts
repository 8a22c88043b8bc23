import { describe, expect, it } from 'vitest';
import { catchUpMarginMs, mustCatchUp, socketWelcome } from './realtime.ts';

describe('mustCatchUp', () => {
  const now = 1_800_000_000_000;

  it('leaves a page alone when the last event came well before it began to listen', () => {
    // The page has heard nothing for 3 s: since now - 3,000; the event was before that, by more
    // than the clocks' margin.
    const lastEventAt = now - 3_000 - catchUpMarginMs - 1;
    expect(mustCatchUp({ now, last_event_at: lastEventAt }, 3_000)).toBe(false);
  });

  it('catches up when the last event may have come after the page began to listen', () => {
    expect(mustCatchUp({ now, last_event_at: now - 1_000 }, 3_000)).toBe(true);
    // Within the clocks' margin before that moment: it may be after it by another clock.
    expect(mustCatchUp({ now, last_event_at: now - 3_000 - catchUpMarginMs }, 3_000)).toBe(true);
  });

  it('catches up when the server cannot tell', () => {
    expect(mustCatchUp({ now, last_event_at: null }, 3_000)).toBe(true);
  });

  it('catches up on an event stamped after the welcome by a clock ahead of this one', () => {
    expect(mustCatchUp({ now, last_event_at: now + 500 }, 0)).toBe(true);
  });
});

describe('socketWelcome', () => {
  it('accepts what the server sends and refuses anything else', () => {
    expect(socketWelcome.safeParse({ now: 5, last_event_at: null }).success).toBe(true);
    expect(socketWelcome.safeParse({ now: 5, last_event_at: 4 }).success).toBe(true);
    expect(socketWelcome.safeParse({ now: 5 }).success).toBe(false);
    expect(socketWelcome.safeParse({ now: '5', last_event_at: 4 }).success).toBe(false);
    expect(socketWelcome.safeParse(null).success).toBe(false);
  });
});
