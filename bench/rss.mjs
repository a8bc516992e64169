// Preloaded into benchmarked processes: reports peak resident memory on exit.
import { writeFileSync } from 'node:fs';

const target = process.env.SKILLHOST_BENCH_RSS_FILE;
process.on('exit', () => {
  if (target !== undefined) writeFileSync(target, `${process.resourceUsage().maxRSS}\n`);
});
