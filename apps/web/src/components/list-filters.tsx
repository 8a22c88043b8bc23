import { SearchOutlined } from '@ant-design/icons';
import { statusFilters, type StatusFilter } from '@imprest/domain/enums.ts';
import { Flex, Input, Select } from 'antd';
import { statusFilterLabels } from '../lib/request-labels.ts';

type ListFiltersProps = {
  /** The search box's placeholder and accessible name, e.g. 'Search requests'. */
  searchLabel: string;
  searchText: string;
  onSearchTextChange: (text: string) => void;
  status: StatusFilter;
  onStatusChange: (status: StatusFilter) => void;
};

/** A list's search box and status filter (all, pending, on_progress, approved, rejected; spec §2). */
export function ListFilters({
  searchLabel,
  searchText,
  onSearchTextChange,
  status,
  onStatusChange,
}: ListFiltersProps) {
  return (
    <Flex gap={12} wrap>
      <Input
        allowClear
        prefix={<SearchOutlined />}
        placeholder={searchLabel}
        aria-label={searchLabel}
        value={searchText}
        onChange={(event) => onSearchTextChange(event.target.value)}
        style={{ flex: '1 1 220px', maxWidth: 420 }}
      />
      <Select<StatusFilter>
        aria-label="Status"
        value={status}
        onChange={onStatusChange}
        style={{ flex: '0 1 180px', minWidth: 140 }}
        options={statusFilters.map((value) => ({ value, label: statusFilterLabels[value] }))}
        data-testid="status-filter"
      />
    </Flex>
  );
}
