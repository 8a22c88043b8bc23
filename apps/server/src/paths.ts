import path from 'node:path';

/**
 * The server package's folder (apps/server). This module sits directly in src/, and the production
 * bundle is one file directly in dist/, so one step up is the package however the server runs
 * (docs/decisions/0020). Every path to files shipped beside the code starts here.
 */
export const serverRoot = path.resolve(import.meta.dirname, '..');

/** The repository (or image) root: the root package.json, apps/web/dist and the default data/. */
export const repoRoot = path.resolve(serverRoot, '../..');
