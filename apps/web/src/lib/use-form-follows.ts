import type { FormInstance } from 'antd';
import { useEffect, useRef } from 'react';

/**
 * Keeps a form's fields on the record it shows as the record refreshes (a socket's event, another
 * tab's save): antd reads `initialValues` once, so a refreshed record never reached the fields, and
 * a save then sent the old values back, undoing the other change. A field the viewer has changed
 * keeps what they typed; every other field takes the record's new value. `values` is the record
 * as the form's fields; compare it by content, not identity (each refresh is a new object).
 */
export function useFormFollows<Values extends Record<string, unknown>>(
  form: FormInstance<Values>,
  values: Values,
): void {
  const shown = useRef(values);
  const key = JSON.stringify(values);
  useEffect(() => {
    const before = shown.current;
    const now = JSON.parse(key) as Values;
    shown.current = now;
    const current = form.getFieldsValue(true) as Values;
    const follow: Partial<Values> = {};
    for (const name of Object.keys(now) as (keyof Values)[]) {
      const isUnchanged = JSON.stringify(current[name]) === JSON.stringify(before[name]);
      if (isUnchanged) follow[name] = now[name];
    }
    form.setFieldsValue(follow as Parameters<FormInstance<Values>['setFieldsValue']>[0]);
  }, [form, key]);
}
