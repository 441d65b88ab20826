import type { Reporter, TestModule } from 'vitest/node';

/**
 * Prints one plain closing line, `tests: N passed, N failed, N skipped`, after vitest's own summary,
 * so CI logs end with a count any tool can read.
 */
export default class SummaryReporter implements Reporter {
  onTestRunEnd(modules: ReadonlyArray<TestModule>): void {
    let passed = 0;
    let failed = 0;
    let skipped = 0;
    for (const m of modules) {
      for (const t of m.children.allTests()) {
        const state = t.result().state;
        if (state === 'passed') passed++;
        else if (state === 'failed') failed++;
        else skipped++;
      }
      if (m.state() === 'failed' && m.children.size === 0) failed++; // a file that failed to load
    }
    process.stdout.write(`\ntests: ${passed} passed, ${failed} failed, ${skipped} skipped\n`);
  }
}
