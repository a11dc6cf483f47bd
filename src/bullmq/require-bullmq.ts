import { assertPeers } from '../utils/peer-dependency';

/**
 * `toolwright/bullmq` needs the optional peer dependencies `bullmq` and `ioredis` (and
 * `class-transformer` for travelling context classes): say so, with the fix, instead of a bare
 * "Cannot find module" from deep inside the entry point.
 */
assertPeers({
  feature: 'toolwright/bullmq',
  modules: ['bullmq', 'ioredis'],
  install: 'npm install bullmq ioredis',
  optional: true,
});

export {};
