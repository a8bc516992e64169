// Preloaded into benchmarked processes: reports, on exit, peak resident memory (KiB) and the CPU
// time of every thread of the process (user and system, microseconds).
import { writeFileSync } from 'node:fs';

const target = process.env.SKILLHOST_BENCH_RSS_FILE;
process.on('exit', () => {
  if (target === undefined) return;
  const usage = process.resourceUsage();
  writeFileSync(target, `${usage.maxRSS} ${usage.userCPUTime + usage.systemCPUTime}\n`);
});
