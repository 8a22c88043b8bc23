import type { FormInstance } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { useLocation } from 'react-router';
import { z } from 'zod';

/**
 * What was typed in a form when the server ended the session (its 7 days ran out, a password was
 * changed elsewhere, finance locked the account): kept in this tab's session storage, and put back
 * when the same user signs in again and comes back to the same page, where the sign-in page sends
 * them (the session's `next`). A deliberate sign-out, or someone else signing in, forgets it.
 */

const draftsKey = 'imprest.kept-drafts';
/** A draft older than this is stale: the page it belongs to has likely moved on. */
const keptForMs = 24 * 60 * 60 * 1000;

const keptDraft = z.object({
  user: z.string(),
  path: z.string(),
  form: z.string(),
  at: z.number(),
  values: z.unknown(),
});
type KeptDraft = z.infer<typeof keptDraft>;

/** The forms on screen, by name: each answers what to keep of it, or undefined for nothing. */
const savers = new Map<string, () => unknown>();

function readDrafts(): KeptDraft[] {
  try {
    const parsed = z
      .array(keptDraft)
      .safeParse(JSON.parse(sessionStorage.getItem(draftsKey) ?? '[]'));
    return parsed.success ? parsed.data.filter((draft) => Date.now() - draft.at < keptForMs) : [];
  } catch {
    return [];
  }
}

function writeDrafts(drafts: KeptDraft[]): void {
  try {
    if (drafts.length === 0) sessionStorage.removeItem(draftsKey);
    else sessionStorage.setItem(draftsKey, JSON.stringify(drafts));
  } catch {
    // Storage unavailable or full: the input is lost, as it was before drafts were kept.
  }
}

function here(): string {
  return `${window.location.pathname}${window.location.search}`;
}

/** Called as the server ends the session, before the page goes: keeps each open form's input. */
export function keepDrafts(userId: string | undefined): void {
  if (!userId) return;
  const path = here();
  const kept = readDrafts().filter((draft) => draft.user === userId && draft.path !== path);
  for (const [form, save] of savers) {
    const values = save();
    if (values !== undefined) kept.push({ user: userId, path, form, at: Date.now(), values });
  }
  writeDrafts(kept);
}

/** Forgets every kept draft but those of `userId` (a deliberate sign-out forgets them all). */
export function forgetDrafts(userId?: string): void {
  const drafts = readDrafts();
  const left = userId ? drafts.filter((draft) => draft.user === userId) : [];
  if (left.length !== drafts.length) writeDrafts(left);
}

function takeDraft(userId: string, form: string, path: string): unknown {
  const drafts = readDrafts();
  const found = drafts.find(
    (draft) => draft.user === userId && draft.form === form && draft.path === path,
  );
  if (!found) return undefined;
  writeDrafts(drafts.filter((draft) => draft !== found));
  return found.values;
}

type DraftCodec<Values> = {
  /** What to keep of the form's values (JSON). */
  keep: (values: Values) => unknown;
  /** The values to put back, from what was kept, or null when it cannot be read. */
  restore: (kept: unknown) => Partial<Values> | null;
};

/**
 * Keeps `form`'s input across a session the server ends (see above), when anything was typed in
 * it; answers whether this form was just filled again from such a draft.
 */
export function useKeptDraft<Values>(
  form: FormInstance<Values>,
  name: string,
  userId: string,
  codec: DraftCodec<Values>,
): boolean {
  const { pathname, search } = useLocation();
  const [isRestored, setIsRestored] = useState(false);
  // Input put back is kept again if the session ends once more before anything is typed.
  const isRestoredRef = useRef(false);
  const codecRef = useRef(codec);
  useEffect(() => {
    codecRef.current = codec;
  });

  useEffect(() => {
    const kept = takeDraft(userId, name, `${pathname}${search}`);
    if (kept === undefined) return;
    const values = codecRef.current.restore(kept);
    if (!values) return;
    form.setFieldsValue(values as Parameters<FormInstance<Values>['setFieldsValue']>[0]);
    isRestoredRef.current = true;
    setIsRestored(true);
  }, [form, name, userId, pathname, search]);

  useEffect(() => {
    savers.set(name, () =>
      form.isFieldsTouched() || isRestoredRef.current
        ? codecRef.current.keep(form.getFieldsValue(true) as Values)
        : undefined,
    );
    return () => {
      savers.delete(name);
    };
  }, [form, name]);

  return isRestored;
}
