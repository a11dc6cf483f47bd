'use strict';
// Runs this project's Jest tests (`npm test` does the same) and prints a stable summary.
const { runCLI } = require('jest');

runCLI({ silent: true, reporters: [] }, [__dirname]).then(({ results }) => {
  process.stdout.write(`jest: ${results.numPassedTests} passed, ${results.numFailedTests} failed\n`);
  for (const suite of results.testResults) if (suite.failureMessage) process.stderr.write(suite.failureMessage);
  process.exitCode = results.success ? 0 : 1;
});
