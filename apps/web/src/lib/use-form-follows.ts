import type { FormInstance } from 'antd';
import { useEffect, useRef, useState } from 'react';

function isSame(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/**
 * Keeps a form's fields on the record it shows as the record refreshes (a socket's event, another
 * tab's save): antd reads `initialValues` once, so a refreshed record never reached the fields, and
 * a save then sent the old values back, undoing the other change. A field the viewer has changed
 * keeps what they typed; every other field takes the record's new value. `values` is the record
 * as the form's fields; compare it by content, not identity (each refresh is a new object).
 *
 * Answers the clashes: fields the viewer changed that someone else changed too since, each with the
 * record's value now, for the form to show before its save replaces them (docs/decisions/0035).
 */
export function useFormFollows<Values extends Record<string, unknown>>(
  form: FormInstance<Values>,
  values: Values,
): Partial<Values> {
  const shown = useRef(values);
  const [clashes, setClashes] = useState<Partial<Values>>({});
  const key = JSON.stringify(values);
  useEffect(() => {
    const before = shown.current;
    const now = JSON.parse(key) as Values;
    shown.current = now;
    const current = form.getFieldsValue(true) as Values;
    const follow: Partial<Values> = {};
    const clashed: (keyof Values)[] = [];
    for (const name of Object.keys(now) as (keyof Values)[]) {
      if (isSame(current[name], before[name])) follow[name] = now[name];
      else if (!isSame(current[name], now[name]) && !isSame(now[name], before[name]))
        clashed.push(name);
    }
    form.setFieldsValue(follow as Parameters<FormInstance<Values>['setFieldsValue']>[0]);
    setClashes((previous) => {
      const next: Partial<Values> = {};
      for (const name of Object.keys(now) as (keyof Values)[]) {
        const isStillApart = !isSame(current[name], now[name]);
        if (isStillApart && (clashed.includes(name) || name in previous)) next[name] = now[name];
      }
      return isSame(next, previous) ? previous : next;
    });
  }, [form, key]);
  return clashes;
}
