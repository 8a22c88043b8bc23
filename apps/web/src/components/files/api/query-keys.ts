/** TanStack Query keys of the file calls; every key starts with 'files'. */
export const fileKeys = {
  all: ['files'] as const,
  link: (fileName: string) => [...fileKeys.all, 'link', fileName] as const,
};
