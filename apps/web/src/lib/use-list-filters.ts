import { searchDebounceMs } from '@imprest/domain/constants.ts';
import type { StatusFilter } from '@imprest/domain/enums.ts';
import { useState } from 'react';
import { useDebouncedValue } from './use-debounced-value.ts';

/**
 * The state of a searchable, filterable, paginated list (spec §2, §9): the search as typed and as
 * sent (debounced 1000 ms), the status filter, the page and its size. A new search, filter or
 * `scope` (e.g. the Staff/Admin list mode) starts again from page 1.
 */
export function useListFilters(scope: string, initialPageSize: number) {
  const [searchText, setSearchText] = useState('');
  const search = useDebouncedValue(searchText.trim(), searchDebounceMs);
  const [status, setStatus] = useState<StatusFilter>('all');
  const [page, setPage] = useState(1);
  const [perPage, setPerPage] = useState(initialPageSize);

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
