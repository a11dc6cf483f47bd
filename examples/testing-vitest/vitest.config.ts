import { defineConfig } from 'vitest/config';

// Vitest compiles TypeScript with esbuild, which keeps legacy decorators but emits no
// `design:*` metadata: name each parameter (`@ToolParam({ name })`) or use a manifest
// (`toolwright-schema`), as for any esbuild toolchain.
export default defineConfig({
  test: { environment: 'node' },
});
