/** @jest-config-loader ts-node
 * @jest-config-loader-options {"transpileOnly": true, "compilerOptions": {"module": "commonjs", "moduleResolution": "node10"}}
 */
import type { Config } from 'jest';

/**
 * Jest runs the TypeScript sources through swc with the options of `.swcrc` (legacy decorators with
 * metadata, CommonJS); inversify (ESM-only) is transformed to CommonJS too.
 */
const config: Config = {
  testEnvironment: 'node',
  roots: ['<rootDir>/test'],
  testMatch: ['**/*.test.ts'],
  transform: { '^.+\\.(t|j)s$': '@swc/jest' },
  transformIgnorePatterns: ['/node_modules/(?!(inversify|@inversifyjs)/)'],
  testTimeout: 20_000,
};

export default config;
