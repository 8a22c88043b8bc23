import { Button, Flex } from 'antd';

/** One answer a reviewer may give: its value, its button's words, and how the button looks. */
export type DecisionChoice<Decision extends string> = {
  decision: Decision;
  label: string;
  look?: 'danger' | 'primary';
};

type DecisionButtonsProps<Decision extends string> = {
  choices: readonly DecisionChoice<Decision>[];
  /** The answer last given, whose button spins while it is sent. */
  chosen: Decision | null;
  isPending: boolean;
  onDecide: (decision: Decision) => void;
};

/**
 * A review's answers, one button each, right-aligned and wrapping on a phone. While one answer is
 * sent, its button spins and the others are disabled, so no second answer goes out with it.
 */
export function DecisionButtons<Decision extends string>({
  choices,
  chosen,
  isPending,
  onDecide,
}: DecisionButtonsProps<Decision>) {
  return (
    <Flex gap={12} wrap justify="flex-end">
      {choices.map((choice) => (
        <Button
          key={choice.decision}
          danger={choice.look === 'danger'}
          type={choice.look === 'primary' ? 'primary' : 'default'}
          onClick={() => onDecide(choice.decision)}
          loading={isPending && chosen === choice.decision}
          disabled={isPending && chosen !== choice.decision}
        >
          {choice.label}
        </Button>
      ))}
    </Flex>
  );
}
