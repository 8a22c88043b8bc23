import { searchDebounceMs } from '@imprest/domain/constants.ts';
import type { StatusFilter } from '@imprest/domain/enums.ts';
import { useState } from 'react';
import { useDebouncedValue } from './use-debounced-value.ts';
import { useEntryState } from './use-entry-state.ts';

/**
 * The state of a searchable, filterable, paginated list (spec §2, §9): the search as typed and as
 * sent (debounced 1000 ms), the status filter, the page and its size. A new search, filter or
 * `scope` (e.g. the Staff/Admin list mode) starts again from page 1. Coming back to the list's
 * entry in the history (Back from a row) finds all of them as they were left.
 */
export function useListFilters(scope: string, initialPageSize: number) {
  // Kept with the page's history entry: Back from a row finds the list as it was left.
  const [searchText, setSearchText] = useEntryState('list-search', '');
  const search = useDebouncedValue(searchText.trim(), searchDebounceMs);
  const [status, setStatus] = useEntryState<StatusFilter>('list-status', 'all');
  const [page, setPage] = useEntryState('list-page', 1);
  const [perPage, setPerPage] = useEntryState('list-per-page', initialPageSize);

  const currentKey = `${search}|${status}|${scope}`;
  const [filterKey, setFilterKey] = useState(currentKey);
  if (filterKey !== currentKey) {
    setFilterKey(currentKey);
    setPage(1);
  }

  /** The table's page change: a new page size starts again from page 1. */
  function changePage(nextPage: number, nextSize: number) {
    setPage(nextSize === perPage ? nextPage : 1);
    setPerPage(nextSize);
  }

  return { searchText, setSearchText, search, status, setStatus, page, perPage, changePage };
}
