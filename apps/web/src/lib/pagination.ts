import {
  defaultPageSize,
  pageSizeChangerThreshold,
  pageSizeOptions,
} from '@imprest/domain/constants.ts';
import type { TablePaginationConfig } from 'antd';

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
    ...overrides,
  };
}
