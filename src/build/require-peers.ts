import { assertPeers } from '../utils/peer-dependency';
import { BUILD_PEERS } from './build-peers';

/**
 * `toolwright/build` needs the optional peers typescript and typescript-json-schema: say so, with
 * the install command, before the generator's modules load them.
 */
assertPeers(BUILD_PEERS);

export {};
