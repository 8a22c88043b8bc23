import { Input, type InputProps } from 'antd';
import type { ChangeEvent } from 'react';

/**
 * Spec §5: keeps the digits (and, when allowed, one decimal point with two decimals) of what was
 * typed and groups the whole part with thousands separators: "1500000.5" → "1,500,000.5".
 */
export function formatTypedAmount(text: string, allowDecimals = true): string {
  const kept = text.replace(allowDecimals ? /[^\d.]/g : /\D/g, '');
  const [whole = '', ...fraction] = kept.split('.');
  const grouped = whole.replace(/^0+(?=\d)/, '').replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  if (!allowDecimals || !kept.includes('.')) return grouped;
  return `${grouped || '0'}.${fraction.join('').slice(0, 2)}`;
}

/** How many kept characters (digits and the point) precede a caret position. */
function keptBefore(text: string, position: number): number {
  return text.slice(0, position).replace(/[^\d.]/g, '').length;
}

/** The caret position in formatted text just after its `count`-th kept character. */
function positionAfter(text: string, count: number): number {
  if (count === 0) return 0;
  let seen = 0;
  for (let index = 0; index < text.length; index += 1) {
    if (/[\d.]/.test(text.charAt(index))) seen += 1;
    if (seen === count) return index + 1;
  }
  return text.length;
}

export type AmountInputProps = Omit<InputProps, 'value' | 'onChange' | 'inputMode'> & {
  value?: string;
  onChange?: (value: string) => void;
  allowDecimals?: boolean;
};

/**
 * A text input for money that shows thousands separators as you type (spec §5); its value is the
 * formatted text, which `parseTypedAmount` of the domain turns back into a number.
 */
export function AmountInput({ value, onChange, allowDecimals = true, ...props }: AmountInputProps) {
  function handleChange(event: ChangeEvent<HTMLInputElement>) {
    const input = event.target;
    const caret = keptBefore(input.value, input.selectionStart ?? input.value.length);
    const formatted = formatTypedAmount(input.value, allowDecimals);
    onChange?.(formatted);
    // Keep the caret after the same digit once separators are added or removed around it.
    requestAnimationFrame(() => {
      if (document.activeElement !== input) return;
      const position = positionAfter(formatted, caret);
      input.setSelectionRange(position, position);
    });
  }

  return (
    <Input
      {...props}
      inputMode={allowDecimals ? 'decimal' : 'numeric'}
      autoComplete="off"
      value={value ?? ''}
      onChange={handleChange}
    />
  );
}
