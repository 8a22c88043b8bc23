import { useCallback, useRef } from 'react';

/** What a call may ask of the mutation beside its variables (TanStack's MutateOptions). */
type CallOptions = { onSettled?: (...args: never[]) => unknown };

/**
 * A mutation's `mutate` for a button or a form: a call while the last one is still on its way
 * (the second click of a double click, or a second Enter, before the button shows it is busy)
 * sends nothing. Each call would carry its own idempotency key, so the server could not tell the
 * two apart: it refused the second, and the page showed that refusal though the first had worked.
 * A call's own options (onSuccess, onError, onSettled) go with it.
 */
export function useOneAtATime<Variables, Options extends CallOptions = CallOptions>(mutation: {
  mutate: (variables: Variables, options?: Options) => void;
}): (variables: Variables, options?: Options) => void {
  const inFlight = useRef(false);
  const { mutate } = mutation;
  return useCallback(
    (variables: Variables, options?: Options) => {
      if (inFlight.current) return;
      inFlight.current = true;
      mutate(variables, {
        ...options,
        onSettled: (...args: never[]) => {
          inFlight.current = false;
          return options?.onSettled?.(...args);
        },
      } as Options);
    },
    [mutate],
  );
}
