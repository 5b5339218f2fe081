/**
 * `npm run bench [-- <suite>…] [--markdown] [--backend sqlite|postgres]`: runs the named benchmark suites (all of them
 * without a name); `--backend postgres` runs the server suite over PostgreSQL and S3 (test/bench/pg-server.ts).
 * A suite is a module test/bench/<name>.bench.ts exporting run(): Promise<BenchReport>; adding one needs no
 * change here. Targets that are missed are reported, not failed: the exit code is non-zero only when a suite crashes.
 */
import { readdirSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { errorStack } from '../../common/errors.ts';
import {
  formatMarkdownTable,
  formatTable,
  machineInfo,
  sha256Reference,
  verdictOf,
  type BenchReport,
  type SuiteOptions,
} from './bench-utils.ts';

const SUFFIX = '.bench.ts';
const BENCH_DIR = import.meta.dirname;

function availableSuites(): string[] {
  return readdirSync(BENCH_DIR)
    .filter((f) => f.endsWith(SUFFIX))
    .map((f) => f.slice(0, -SUFFIX.length))
    .sort();
}

async function loadSuite(name: string): Promise<(options: SuiteOptions) => Promise<BenchReport>> {
  const module = (await import(pathToFileURL(`${BENCH_DIR}/${name}${SUFFIX}`).href)) as { run?: unknown };
  if (typeof module.run !== 'function') throw new Error(`test/bench/${name}${SUFFIX} does not export run()`);
  return module.run as (options: SuiteOptions) => Promise<BenchReport>;
}

function printReport(report: BenchReport, markdown: boolean): void {
  console.log(`\n== ${report.title} ==\n`);
  console.log(formatTable(report.rows));
  if (report.notes.length > 0) console.log(`\n${report.notes.map((n) => `  · ${n}`).join('\n')}`);
  const missed = report.rows.filter((r) => verdictOf(r) === 'MISS');
  console.log(
    missed.length === 0
      ? '\nAll targets met.'
      : `\nMISSED ${missed.length} target(s):\n${missed.map((r) => `  ✗ ${r.name}: ${r.measured} (target ${r.target!.label})`).join('\n')}`,
  );
  if (markdown) console.log(`\n${formatMarkdownTable(report.rows)}`);
}

async function main(): Promise<void> {
  const { positionals, values } = parseArgs({
    args: process.argv.slice(2),
    allowPositionals: true,
    options: { markdown: { type: 'boolean' }, backend: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
  });
  const backend = values.backend ?? 'sqlite';
  const suites = availableSuites();
  if (values.help) {
    console.log(
      `Usage: npm run bench -- [suite …] [--markdown] [--backend sqlite|postgres]\nSuites: ${suites.join(', ')} (default: all)\n` +
        '--backend postgres: the server suite over PostgreSQL + S3 with three instances (docs/benchmarks.md)',
    );
    return;
  }
  if (backend !== 'sqlite' && backend !== 'postgres') {
    console.error(`--backend must be sqlite or postgres, got ${JSON.stringify(backend)}.`);
    process.exitCode = 2;
    return;
  }
  const unknown = positionals.filter((p) => !suites.includes(p));
  if (unknown.length > 0) {
    console.error(
      `Unknown benchmark suite${unknown.length > 1 ? 's' : ''}: ${unknown.join(', ')}. Available: ${suites.join(', ')}.`,
    );
    process.exitCode = 2;
    return;
  }
  const selected = positionals.length > 0 ? [...new Set(positionals)] : suites;
  if (backend === 'postgres' && selected.some((name) => name !== 'server')) {
    console.error('--backend postgres applies to the server suite only: npm run bench -- server --backend postgres.');
    process.exitCode = 2;
    return;
  }
  // Machines here differ by 2× and more from hour to hour: every run names its CPU speed, so figures compare.
  console.log(
    `${new Date().toISOString()} · ${machineInfo()} · CPU reference: SHA-256 in memory ${sha256Reference().toFixed(0)} MB/s` +
      `\nsuites: ${selected.join(', ')}`,
  );
  let missed = 0;
  for (const name of selected) {
    const report = await (await loadSuite(name))({ backend });
    printReport(report, values.markdown ?? false);
    missed += report.rows.filter((r) => verdictOf(r) === 'MISS').length;
  }
  if (selected.length > 1)
    console.log(`\n${missed === 0 ? 'All targets met.' : `${missed} target(s) missed in total.`}`);
}

main().catch((error: unknown) => {
  console.error(errorStack(error));
  process.exitCode = 1;
});
