import { auditActions, auditObjectTypes } from '@imprest/domain/audit.ts';
import { DatePicker, Input, Select } from 'antd';
import dayjs from 'dayjs';
import { useState } from 'react';
import { auditActionLabel, auditObjectLabel } from '@imprest/domain/audit-words.ts';
import { useDebouncedValue } from '../../../lib/use-debounced-value.ts';
import { usePeople } from '../api/get-people.ts';
import type { AuditFilters } from '../api/get-audit-events.ts';

/** The audit page's filters: person, action, object, date range (days in the organisation's zone). */
export function AuditFiltersBar({
  value,
  onChange,
}: {
  value: AuditFilters;
  onChange: (filters: AuditFilters) => void;
}) {
  const [search, setSearch] = useState('');
  const people = usePeople(useDebouncedValue(search, 300));
  const set = (patch: Partial<AuditFilters>) => onChange({ ...value, ...patch });

  return (
    <div
      data-testid="audit-filters"
      style={{
        display: 'grid',
        gap: 8,
        gridTemplateColumns: 'repeat(auto-fit, minmax(200px, 1fr))',
      }}
    >
      <Select
        aria-label="Person"
        placeholder="Person"
        allowClear
        showSearch={{ filterOption: false, onSearch: setSearch }}
        loading={people.isFetching}
        value={value.actor_id}
        onChange={(actorId: string | undefined) => set({ actor_id: actorId })}
        options={(people.data?.users ?? []).map((user) => ({
          value: user.id,
          label: user.fullname,
        }))}
      />
      <Select
        aria-label="Action"
        placeholder="Action"
        allowClear
        showSearch={{ optionFilterProp: 'label' }}
        value={value.action}
        onChange={(action: AuditFilters['action']) => set({ action })}
        options={auditActions.map((action) => ({ value: action, label: auditActionLabel(action) }))}
      />
      <Select
        aria-label="Object"
        placeholder="Object"
        allowClear
        value={value.object_type}
        onChange={(objectType: AuditFilters['object_type']) =>
          set({ object_type: objectType, ...(objectType ? {} : { object_id: undefined }) })
        }
        options={auditObjectTypes.map((type) => ({ value: type, label: auditObjectLabel(type) }))}
      />
      <Input.Search
        aria-label="Object id"
        placeholder="Object id"
        allowClear
        defaultValue={value.object_id}
        onSearch={(objectId) => set({ object_id: objectId.trim() || undefined })}
      />
      <DatePicker.RangePicker
        aria-label="Dates"
        allowEmpty={[true, true]}
        format="DD/MM/YYYY"
        value={[value.from ? dayjs(value.from) : null, value.to ? dayjs(value.to) : null]}
        onChange={(range) =>
          set({
            from: range?.[0]?.format('YYYY-MM-DD') ?? undefined,
            to: range?.[1]?.format('YYYY-MM-DD') ?? undefined,
          })
        }
      />
    </div>
  );
}
