import type { MetadataStorage } from 'class-validator';
import { lazyPeer, type PeerRequirement } from '../utils/peer-dependency';

/** class-validator and class-transformer: peers that only DTO parameters need. */
const DTO_PEERS: PeerRequirement = {
  feature: 'a DTO parameter',
  modules: ['class-validator', 'class-transformer'],
  install: 'npm install class-validator class-transformer',
  optional: false,
};

/**
 * @internal class-validator, loaded when the first DTO is described or validated: it is the
 * biggest part of a cold `require('toolwright')` otherwise, and many toolkits have no DTO.
 */
export const classValidator = lazyPeer(() => require('class-validator') as typeof import('class-validator'), DTO_PEERS);

/** @internal class-transformer (`plainToInstance`), loaded with the first DTO argument. */
export const classTransformer = lazyPeer(() => require('class-transformer') as typeof import('class-transformer'), DTO_PEERS);

/** @internal class-transformer's metadata storage (`@Type` thunks), loaded with the first DTO schema. */
export const classTransformerStorage = lazyPeer(
  () => require('class-transformer/cjs/storage') as typeof import('class-transformer/cjs/storage'),
  DTO_PEERS,
);

/**
 * True once any class-validator decorator has run in this process. class-validator keeps its
 * metadata in one storage on the global object (see its `getMetadataStorage()`: shared by every
 * copy of the package) and creates it with the first decorator; without it no class carries
 * class-validator metadata, and class-validator need not be loaded to know that.
 *
 * @internal
 */
export function validationMetadataExists(): boolean {
  return (globalThis as { classValidatorMetadataStorage?: MetadataStorage }).classValidatorMetadataStorage !== undefined;
}
