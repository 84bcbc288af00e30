// Adds up vitest JSON reports and prints the closing line CI reads: `tests: N passed, M failed`.
// An empty or missing report counts as a failure, so a run that ran nothing cannot look green.
import { readFileSync } from 'node:fs';

let passed = 0;
let failed = 0;
let ok = true;
for (const file of process.argv.slice(2)) {
  try {
    const report = JSON.parse(readFileSync(file, 'utf8'));
    passed += report.numPassedTests;
    failed += report.numFailedTests;
    if (report.numTotalTests === 0) ok = false;
  } catch (error) {
    console.error(`no test report in ${file}: ${error.message}`);
    ok = false;
  }
}
if (process.argv.length <= 2) ok = false;
console.log(`tests: ${passed} passed, ${failed} failed`);
process.exit(ok && failed === 0 ? 0 : 1);
