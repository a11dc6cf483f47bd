import { defineConfig } from 'vitest/config';

// Vite 8 (the Oxc transform) emits decorator metadata when tsconfig.json has
// `experimentalDecorators` and `emitDecoratorMetadata` (see "Toolchains" in toolwright's README).
export default defineConfig({
  test: { environment: 'node' },
});
