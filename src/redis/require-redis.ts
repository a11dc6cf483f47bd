import { assertPeers } from '../utils/peer-dependency';

/**
 * `toolwright/redis` needs the optional peer dependency `ioredis`: say so, with the fix, instead
 * of a bare "Cannot find module" from deep inside the entry point.
 */
assertPeers({
  feature: 'toolwright/redis',
  modules: ['ioredis'],
  install: 'npm install ioredis',
  optional: true,
});

export {};
