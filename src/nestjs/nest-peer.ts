import { lazyPeer } from '../utils/peer-dependency';

/** @internal What `toolwright/nestjs` uses of `@nestjs/core` at run time. */
export type NestCore = Pick<typeof import('@nestjs/core'), 'APP_INTERCEPTOR' | 'DiscoveryModule' | 'DiscoveryService' | 'ModuleRef'>;

/** @internal What `toolwright/nestjs` uses of `@nestjs/common` at run time. */
export type NestCommon = Pick<typeof import('@nestjs/common'), 'ForbiddenException' | 'Scope'>;

const PEER = {
  feature: 'toolwright/nestjs',
  modules: ['@nestjs/common', '@nestjs/core'],
  install: 'npm i @nestjs/common @nestjs/core',
  optional: true,
} as const;

/**
 * @internal The application's `@nestjs/core` (11 or 12), loaded by the first `forRoot` /
 * `forRootAsync`: `require('toolwright/nestjs')` loads nothing of Nest, and a project without it
 * gets `PEER_DEPENDENCY_MISSING` naming the install command. Nest 12 is an ES module that
 * `require` loads on Node 20.19 and later; either way it is the module instance the application
 * imports, so Nest's injection tokens (`DiscoveryService`, `ModuleRef`) are the application's.
 */
export const loadNestCore = lazyPeer(() => require('@nestjs/core') as NestCore, PEER);

/** @internal The application's `@nestjs/common`, loaded when discovery explains a provider's scope or a request is refused. */
export const loadNestCommon = lazyPeer(() => require('@nestjs/common') as NestCommon, PEER);
