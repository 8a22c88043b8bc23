import { defaultPageSize } from '@imprest/domain/constants.ts';
import { useCallback, useEffect, useState } from 'react';

/** A page of a list the server pages (spec §9: pages count from 1, 10 a page by default). */
export type Paging = { page: number; perPage: number };

/** The paging after a table's change: a new page size starts again on page 1. */
export function pagingAfterChange(current: Paging, page: number, perPage: number): Paging {
  return { page: perPage === current.perPage ? page : 1, perPage };
}

/** Where a list starts: its first page, of the default size. */
export const firstPage: Paging = { page: 1, perPage: defaultPageSize };

/**
 * The page and page size of a table the server pages, with the table's change handler and a way
 * back to page 1 (a new filter).
 */
export function useServerPaging() {
  const [paging, setPaging] = useState<Paging>(firstPage);
  const onChange = useCallback(
    (page: number, size: number) => setPaging((current) => pagingAfterChange(current, page, size)),
    [],
  );
  const restart = useCallback(() => setPaging((current) => ({ ...current, page: 1 })), []);
  return { ...paging, onChange, restart, setPaging };
}

/**
 * Rows leave a list while it is open (answered, ended or removed here, elsewhere, live): a page
 * that emptied moves back to the list's new last page rather than showing none. `total` is the
 * server's, undefined while it is not known for the page asked (a placeholder is on screen).
 */
export function useLastPageInRange(
  paging: ReturnType<typeof useServerPaging>,
  total: number | undefined,
): void {
  const { page, perPage, setPaging } = paging;
  useEffect(() => {
    if (total === undefined) return;
    const lastPage = Math.max(1, Math.ceil(total / perPage));
    if (page > lastPage) setPaging({ page: lastPage, perPage });
  }, [total, page, perPage, setPaging]);
}
