import { z } from 'zod';
import { isStoredFileName, isUploadAllowed, uploadExtensions } from '../files.ts';

/** `GET files/presigned-post-url?file_name=`: the name of the file as the user chose it. */
export const presignedPostQuery = z.object({
  file_name: z
    .string()
    .trim()
    .min(1, 'file_name is required')
    .max(255)
    .refine(isUploadAllowed, {
      message: `File extension not supported. Allowed: ${uploadExtensions.join(', ')}`,
    }),
});

/**
 * Where and how to upload (decisions §6): a multipart POST to `url` with every one of `fields`,
 * then the file itself in the field `file`, last. `file_name` is the stored name to put in
 * `file_paths`: 7 random alphanumerics and the sanitised name.
 */
export const presignedPostResponse = z.object({
  url: z.string(),
  fields: z.record(z.string(), z.string()),
  file_name: z.string(),
  max_bytes: z.number().int(),
});
export type PresignedPostResponse = z.infer<typeof presignedPostResponse>;

/** A stored file name (what `file_paths` hold). */
export const storedFileName = z
  .string()
  .trim()
  .refine(isStoredFileName, { message: 'Not a stored file name' });

/** `GET files/presigned-get-url?file_name=`: a stored name. */
export const presignedGetQuery = z.object({ file_name: storedFileName });

/** A link to read the file, valid for five minutes (decisions §6). */
export const presignedGetResponse = z.object({ url: z.string() });
export type PresignedGetResponse = z.infer<typeof presignedGetResponse>;
