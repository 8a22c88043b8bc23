import {
  defaultPageSize,
  pageSizeChangerThreshold,
  pageSizeOptions,
} from '@imprest/domain/constants.ts';
import type { PaginationProps, TablePaginationConfig } from 'antd';
import { cloneElement, isValidElement, type KeyboardEvent, type ReactNode } from 'react';

type ItemType = Parameters<NonNullable<PaginationProps['itemRender']>>[1];

/** What each control of the pager says to a screen reader. */
function itemName(page: number, type: ItemType): string {
  if (type === 'prev') return 'Previous page';
  if (type === 'next') return 'Next page';
  if (type === 'jump-prev') return 'Previous 5 pages';
  if (type === 'jump-next') return 'Next 5 pages';
  return `Page ${page}`;
}

/**
 * antd's pager puts the focus stop on each <li> (tabindex 0, no role), around a button named
 * after its icon ("left") or an <a> without a role: the button becomes the one stop, and the
 * current page's says that it is.
 */
function makeButtonTheStop(button: HTMLButtonElement | null) {
  const item = button?.parentElement;
  if (!button || !item) return;
  item.removeAttribute('tabindex');
  const isCurrent = item.classList.contains('ant-pagination-item-active');
  if (isCurrent) button.setAttribute('aria-current', 'page');
  else button.removeAttribute('aria-current');
}

/** Enter is the <li>'s own (antd turns the page there); the button's click would turn it again. */
function handleKeyDown(event: KeyboardEvent) {
  if (event.key === 'Enter') event.preventDefault();
}

/** The pager's controls as buttons named "Previous page", "Page 2", "Next page" (WCAG 4.1.2). */
const itemRender: PaginationProps['itemRender'] = (page, type, original) => {
  const props = {
    type: 'button' as const,
    'aria-label': itemName(page, type),
    tabIndex: 0,
    onKeyDown: handleKeyDown,
    // A new ref each render, so that React calls it after every render: the pager sets the
    // <li>'s tabindex again when Previous or Next comes back into use, and the current page moves.
    ref: (button: HTMLButtonElement | null) => makeButtonTheStop(button),
  };
  // Previous and next are antd's buttons already (out of the tab order); the others are <a>.
  if (type === 'prev' || type === 'next') {
    return isValidElement(original) ? cloneElement(original, props) : original;
  }
  const content = isValidElement<{ children?: ReactNode }>(original)
    ? original.props.children
    : page;
  const className = type === 'page' ? 'pagination-page' : 'ant-pagination-item-link';
  return (
    <button {...props} className={`pagination-button ${className}`}>
      {content}
    </button>
  );
};

/** Table pagination of spec §9: 10 a page, options 10/20/50/100, the size changer above 50 rows. */
export function tablePagination(
  total: number,
  overrides: TablePaginationConfig = {},
): TablePaginationConfig {
  return {
    defaultPageSize,
    pageSizeOptions: pageSizeOptions.map(String),
    showSizeChanger: total > pageSizeChangerThreshold,
    total,
    position: ['bottomRight'],
    itemRender,
    ...overrides,
  };
}
