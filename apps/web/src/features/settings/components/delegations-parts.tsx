import type { DelegationResponse, DelegationPerson } from '@imprest/domain/api/delegations.ts';
import type { DelegationStatus } from '@imprest/domain/delegations.ts';
import { roleLabels } from '@imprest/domain/enums.ts';
import { Button, Popconfirm, Tag } from 'antd';
import { useEffect, useRef, type RefObject } from 'react';
import { focusInPlaceOf, isFocusLost } from '../../../lib/focus.ts';
import { formatDate } from '../../../lib/format.ts';

const statusColours: Record<DelegationStatus, string> = {
  scheduled: 'blue',
  active: 'green',
  ended: 'default',
};

const statusLabels: Record<DelegationStatus, string> = {
  scheduled: 'Scheduled',
  active: 'Active',
  ended: 'Ended',
};

/** Where a delegation stands today: Scheduled, Active or Ended. */
export function DelegationStatusTag({ status }: { status: DelegationStatus }) {
  return <Tag color={statusColours[status]}>{statusLabels[status]}</Tag>;
}

/** A person of a delegation with their position, e.g. `Baraka Custodian (Petty Cash Custodian)`. */
export function personText(person: Pick<DelegationPerson, 'fullname' | 'role'>): string {
  return `${person.fullname} (${roleLabels[person.role]})`;
}

/** The days a delegation covers in en-GB format (spec §9), both included: `05/03/2026 – 09/03/2026`. */
export function delegationDaysText(delegation: Pick<DelegationResponse, 'starts_on' | 'ends_on'>) {
  const first = formatDate(delegation.starts_on);
  const last = formatDate(delegation.ends_on);
  return first === last ? first : `${first} – ${last}`;
}

const endButtonClass = 'end-delegation';

type EndDelegationButtonProps = {
  delegation: DelegationResponse;
  isPending: boolean;
  /** Told with the End now button, which goes once the delegation has ended. */
  onConfirm: (button: HTMLElement | null) => void;
};

/** End now, after a confirmation that says who stops answering for whom. */
export function EndDelegationButton({
  delegation,
  isPending,
  onConfirm,
}: EndDelegationButtonProps) {
  const button = useRef<HTMLButtonElement>(null);
  const isScheduled = delegation.status === 'scheduled';

  function handleConfirm() {
    // The confirmation closes with the focus in it: the focus returns to End now (WCAG 2.4.3).
    button.current?.focus();
    onConfirm(button.current);
  }

  return (
    <Popconfirm
      title="End this delegation now?"
      description={
        isScheduled
          ? `${delegation.delegate.fullname} will not answer ${delegation.delegator.fullname}'s review steps.`
          : `${delegation.delegate.fullname} stops answering ${delegation.delegator.fullname}'s review steps at once.`
      }
      okText="End now"
      okButtonProps={{ danger: true, loading: isPending }}
      cancelText="Cancel"
      onConfirm={handleConfirm}
    >
      <Button ref={button} className={endButtonClass} size="small" danger loading={isPending}>
        End now
      </Button>
    </Popconfirm>
  );
}

/**
 * For the End now buttons in `container`: once the button of an ended delegation has gone (with
 * its row, or its status), the focus it held moves to the End now button in its place, else to
 * `fallback()`, rather than to <body>, from where a keyboard user would tab all the way back
 * (WCAG 2.4.3). Returns the handler to call with that button when End now is confirmed.
 */
export function useFocusAfterEnd(
  container: RefObject<HTMLElement | null>,
  fallback: () => HTMLElement | null | undefined,
) {
  const ended = useRef<{ button: HTMLElement; index: number } | null>(null);
  // After every render: the one that drops the button comes when the lists have been fetched again.
  useEffect(() => {
    const current = ended.current;
    if (!current || current.button.isConnected || !container.current) return;
    ended.current = null;
    if (!isFocusLost()) return;
    const buttons = container.current.querySelectorAll<HTMLElement>(`.${endButtonClass}`);
    focusInPlaceOf(buttons, current.index, fallback());
  });

  return function handleEndConfirmed(button: HTMLElement | null) {
    if (!button || !container.current) return;
    const buttons = Array.from(container.current.querySelectorAll(`.${endButtonClass}`));
    ended.current = { button, index: buttons.indexOf(button) };
  };
}
