import { useCallback, useRef } from 'react';

/**
 * A mutation's `mutate` for a button: a click while the last call is still on its way (the second
 * click of a double click, before the button shows it is busy) sends nothing. Each call would carry
 * its own idempotency key, so the server could not tell the two apart; it refused the second.
 */
export function useOneAtATime<Variables>(mutation: {
  mutate: (variables: Variables, options?: { onSettled?: () => void }) => void;
}): (variables: Variables) => void {
  const inFlight = useRef(false);
  const { mutate } = mutation;
  return useCallback(
    (variables: Variables) => {
      if (inFlight.current) return;
      inFlight.current = true;
      mutate(variables, {
        onSettled: () => {
          inFlight.current = false;
        },
      });
    },
    [mutate],
  );
}
