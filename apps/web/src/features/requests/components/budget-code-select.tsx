import { Select, Spin, Typography, type SelectProps } from 'antd';
import { useState } from 'react';
import { useDebouncedValue } from '../../../lib/use-debounced-value.ts';
import { budgetCodeLookupSize, useBudgetCodeLookup } from '../api/get-budget-codes.ts';
import { budgetCodeLabel } from './request-fields.ts';

/** How long typing rests before the lookup asks the server. */
const lookupDelayMs = 250;

/**
 * Given by Form.Item: the field's id (its label points at it), value and change handler, and the
 * rest passed on as they come: aria-invalid, aria-required and aria-describedby (its error), status.
 */
type FormItemProps = Omit<
  SelectProps<string>,
  'value' | 'onChange' | 'options' | 'showSearch' | 'onOpenChange' | 'popupRender'
>;

type BudgetCodeSelectProps = FormItemProps & {
  value?: string;
  onChange?: (code: string) => void;
  /** The code an edited request already has, shown until a lookup finds it. */
  current?: { code: string; name: string };
};

/** Keeps the options already shown that match what is typed, while the server is asked. */
function matchesTyped(input: string, option?: { label?: unknown }): boolean {
  return String(option?.label ?? '')
    .toLowerCase()
    .includes(input.trim().toLowerCase());
}

/**
 * The request form's budget-code field (spec §5): it asks the server for the few active codes
 * matching what is typed, so an organisation with thousands of codes sends twenty, not all.
 */
export function BudgetCodeSelect({ value, onChange, current, ...rest }: BudgetCodeSelectProps) {
  const [typed, setTyped] = useState('');
  const search = useDebouncedValue(typed.trim(), lookupDelayMs);
  const lookup = useBudgetCodeLookup(search);
  const [chosen, setChosen] = useState(current);
  const [isOpen, setIsOpen] = useState(false);

  const entries = lookup.data ?? [];
  const options = entries.map((entry) => ({ value: entry.code, label: budgetCodeLabel(entry) }));
  // The chosen code keeps its label when a later lookup no longer lists it (while nothing is typed:
  // typing hides the label anyway, and the list then shows only what matches).
  const typedText = typed.trim();
  if (chosen && chosen.code === value && !typedText && !entries.some((e) => e.code === value)) {
    options.unshift({ value: chosen.code, label: budgetCodeLabel(chosen) });
  }
  // Only an open list shows its progress; a closed field refreshing its first page stays quiet.
  const isLooking = isOpen && (lookup.isFetching || search !== typedText);
  // The server's answer for what is typed is shown as it is: it matches names as "name code", which
  // the label ("code - name") may not contain. Until it comes, the last answer is narrowed here.
  const isAnswerForTyped = search === typedText && !lookup.isPlaceholderData;

  function handleChange(code: string) {
    const entry = entries.find((candidate) => candidate.code === code);
    if (entry) setChosen(entry);
    onChange?.(code);
  }

  return (
    <Select
      {...rest}
      value={value}
      onChange={handleChange}
      showSearch={{
        filterOption: isAnswerForTyped ? false : matchesTyped,
        onSearch: setTyped,
        searchValue: typed,
      }}
      onOpenChange={(open) => {
        setIsOpen(open);
        if (!open) setTyped('');
      }}
      placeholder="Select a budget code"
      loading={isLooking}
      notFoundContent={
        lookup.isError ? (
          lookup.error.message
        ) : isLooking ? (
          <Spin size="small" />
        ) : typedText ? (
          `No active budget code matches “${typedText}”`
        ) : (
          'No active budget codes'
        )
      }
      options={options}
      popupRender={(menu) => (
        <>
          {menu}
          {entries.length >= budgetCodeLookupSize ? (
            <Typography.Text
              type="secondary"
              style={{ display: 'block', padding: '4px 12px', fontSize: 12 }}
              data-testid="budget-code-lookup-more"
            >
              Showing the first {budgetCodeLookupSize} codes; type a code or a name to find others.
            </Typography.Text>
          ) : null}
        </>
      )}
    />
  );
}
