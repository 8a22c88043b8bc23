import type { TableProps } from 'antd';

/**
 * How a list's table scrolls sideways. Wider than a phone it keeps to its card: the browser lays
 * the columns out for the width there is, a long name taking two lines where the columns would not
 * fit on one (beside the side menu at 768–1,024 px, a table as wide as its content pushed View past
 * the card's edge). A phone's table is as wide as its content, scrolling sideways only if it must.
 */
export function listTableScroll(isMobile: boolean): TableProps['scroll'] {
  return { x: isMobile ? 'max-content' : true };
}
