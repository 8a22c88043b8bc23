type RowOpenButtonProps = { children: string; onOpen: () => void };

/**
 * A row's name as the button that opens the row. On phones the row itself is the action and the
 * action column is hidden (spec §2 Tables in general); a click on a row is no use to someone on a
 * keyboard or a screen reader, so the name is the row's focusable action there (issue 13, axe).
 */
export function RowOpenButton({ children, onOpen }: RowOpenButtonProps) {
  return (
    <button
      type="button"
      className="row-open-button"
      onClick={(event) => {
        // The row's own click handler would open it a second time.
        event.stopPropagation();
        onOpen();
      }}
    >
      {children}
    </button>
  );
}
