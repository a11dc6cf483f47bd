import { assertPeers } from '../utils/peer-dependency';

/**
 * `toolwright/postgres` needs the optional peer dependency `pg`: say so, with the fix, instead of
 * a bare "Cannot find module" from deep inside the entry point.
 */
assertPeers({ feature: 'toolwright/postgres', modules: ['pg'], install: 'npm install pg', optional: true });

export {};
