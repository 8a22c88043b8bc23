import { useEffect, useState } from 'react';
import { useLocation } from 'react-router';

/** The values kept, by history entry and name; the oldest are forgotten past `keptEntries`. */
const remembered = new Map<string, unknown>();
const keptEntries = 200;

/**
 * `useState` whose value belongs to the page's entry in the browser's history: coming back to
 * that entry (Back, or a page's own Back, which is history −1) finds the value as it was left,
 * while opening the page anew (a menu link, a new address) starts from `initial`. A list keeps
 * its page, filter and search this way when its user opens a row and comes back; they started
 * again from page 1, all statuses, no search. Kept in this tab's memory: a reload starts anew.
 */
export function useEntryState<T>(name: string, initial: T) {
  const { key } = useLocation();
  const id = `${key}|${name}`;
  const [value, setValue] = useState<T>(() =>
    remembered.has(id) ? (remembered.get(id) as T) : initial,
  );
  useEffect(() => {
    remembered.delete(id);
    remembered.set(id, value);
    if (remembered.size > keptEntries) {
      const oldest = remembered.keys().next().value;
      if (oldest !== undefined) remembered.delete(oldest);
    }
  }, [id, value]);
  return [value, setValue] as const;
}
