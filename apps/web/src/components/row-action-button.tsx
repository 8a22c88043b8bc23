import { Button } from 'antd';
import { useId } from 'react';

type RowActionButtonProps = {
  /** The button's visible label and accessible name, e.g. 'View' (spec §2). */
  children: string;
  /** The ids of the row's cells that say what the row is (`useRowCells().describedBy`). */
  describedBy: string;
  onClick: () => void;
};

/**
 * A table row's action button ('View', 'View Budget') described by its row's cells. A screen
 * reader's list of a page's buttons otherwise reads 'View' ten times; it now reads each with the
 * row it opens (WCAG 2.4.6). The name stays the label people see and say (WCAG 2.5.3 Label in
 * Name); the row comes as the button's description, from the cells on screen.
 */
export function RowActionButton({ children, describedBy, onClick }: RowActionButtonProps) {
  return (
    <Button
      size="small"
      aria-describedby={describedBy}
      onClick={(event) => {
        // The row's own click handler (a preview, or the row as the action on phones).
        event.stopPropagation();
        onClick();
      }}
    >
      {children}
    </Button>
  );
}

/**
 * Ids for a table's cells, so that a row's action can point at the cells that name the row:
 * `cell(column)` is a column's `onCell`, `describedBy(row, columns)` the action's
 * `aria-describedby`. Unique per table, so two tables of the same rows (Home's lists) do not
 * share ids.
 */
export function useRowCells<Row extends { id: string | number }>() {
  const tableId = useId();
  const idOf = (row: Row, column: string) => `${tableId}${row.id}-${column}`;
  return {
    cell: (column: string) => (row: Row) => ({ id: idOf(row, column) }),
    describedBy: (row: Row, columns: readonly string[]) =>
      columns.map((column) => idOf(row, column)).join(' '),
  };
}
