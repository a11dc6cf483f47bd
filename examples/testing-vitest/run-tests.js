// Runs this project's Vitest tests (`npm test` does the same) and prints a stable summary.
import { startVitest } from 'vitest/node';

const vitest = await startVitest('test', [], { run: true, watch: false, reporters: [{}] });
let passed = 0;
let failed = 0;
for (const module of vitest.state.getTestModules()) {
  for (const error of module.errors()) process.stderr.write(`${module.moduleId}: ${error.message}\n`);
  for (const test of module.children.allTests()) {
    const result = test.result();
    if (result.state === 'passed') passed += 1;
    if (result.state !== 'failed') continue;
    failed += 1;
    for (const error of result.errors ?? []) process.stderr.write(`${test.fullName}: ${error.message}\n`);
  }
}
await vitest.close();
process.stdout.write(`vitest: ${passed} passed, ${failed} failed\n`);
process.exitCode = failed === 0 && vitest.state.getCountOfFailedTests() === 0 && passed > 0 ? 0 : 1;
