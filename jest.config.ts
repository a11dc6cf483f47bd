/** @jest-config-loader ts-node
 * @jest-config-loader-options {"transpileOnly": true, "compilerOptions": {"module": "commonjs", "moduleResolution": "node10"}}
 */
import type { Config } from 'jest';

const swc = {
  jsc: {
    parser: { syntax: 'typescript', decorators: true },
    transform: { legacyDecorator: true, decoratorMetadata: true },
    target: 'es2022',
  },
  module: { type: 'commonjs' },
  sourceMaps: 'inline',
};

/** Jest runs the TypeScript sources through swc; inversify (ESM-only) is transformed to CommonJS too. */
const config: Config = {
  testEnvironment: 'node',
  roots: ['<rootDir>/test'],
  testMatch: ['**/*.test.ts'],
  transform: { '^.+\\.(t|j)s$': ['@swc/jest', swc] },
  transformIgnorePatterns: ['/node_modules/(?!(inversify|@inversifyjs)/)'],
  testTimeout: 20_000,
};

export default config;
