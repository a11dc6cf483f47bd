'use strict';
// Shared by the benchmarks: the heap in use after two full collections (run node with --expose-gc;
// npm run bench does), so that differences measure what stays reachable.
const gc = global.gc ?? (() => undefined);

function heapUsed() {
  gc();
  gc();
  return process.memoryUsage().heapUsed;
}

module.exports = { heapUsed };
