// Bench-only preload for the proxy process (node --expose-gc --require …): on SIGUSR2, run a
// full GC and print the memory figures, so the bench can tell a leak (live heap growing) from
// V8 simply letting its heap grow between lazy collections (RSS drifting up while the live
// heap stays flat). Not part of the product.
'use strict';
process.on('SIGUSR2', () => {
  global.gc();
  global.gc();
  const m = process.memoryUsage();
  const mib = (b) => +(b / 1048576).toFixed(2);
  process.stderr.write(`PAGEHAND_MEM ${JSON.stringify({ rssMiB: mib(m.rss), heapUsedMiB: mib(m.heapUsed), externalMiB: mib(m.external) })}\n`);
});
