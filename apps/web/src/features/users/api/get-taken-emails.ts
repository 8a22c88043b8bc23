import { maxPageSize } from '@imprest/domain/constants.ts';
import { useQuery } from '@tanstack/react-query';
import { getUsers } from './get-users.ts';
import { userKeys } from './query-keys.ts';

/** Past this many users the preview leaves the check to the server's answer on Save. */
const largestCheckedOrganisation = 2000;

/**
 * The e-mails already taken in the organisation, lower-cased, so the bulk preview can mark a row
 * before Save. Reads the users list a full page at a time; a very large organisation is not read
 * (null) and the server's 400 details mark those rows instead.
 */
export async function getTakenEmails(): Promise<ReadonlySet<string> | null> {
  const base = { department: 'all', role: 'all', perPage: maxPageSize, search: '' } as const;
  const first = await getUsers({ ...base, page: 1 });
  if (first.total > largestCheckedOrganisation) return null;
  const pageCount = Math.ceil(first.total / maxPageSize);
  const rest = await Promise.all(
    Array.from({ length: Math.max(0, pageCount - 1) }, (_unused, index) =>
      getUsers({ ...base, page: index + 2 }),
    ),
  );
  return new Set(
    [first, ...rest].flatMap((page) => page.users.map((user) => user.email.toLowerCase())),
  );
}

/** The organisation's taken e-mails while `isEnabled` (a file has been read). */
export function useTakenEmails(isEnabled: boolean) {
  return useQuery({
    queryKey: userKeys.emails(),
    queryFn: getTakenEmails,
    enabled: isEnabled,
    staleTime: 30_000,
  });
}
