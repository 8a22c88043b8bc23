import type { FormRule } from 'antd';
import type { z } from 'zod';

/** An antd form rule that checks a field with a shared zod schema and shows its first message. */
export function zodRule(schema: z.ZodType): FormRule {
  return {
    validator: async (_rule, value: unknown) => {
      const result = schema.safeParse(value ?? '');
      if (!result.success) throw new Error(result.error.issues[0]?.message ?? 'Invalid value');
    },
  };
}
