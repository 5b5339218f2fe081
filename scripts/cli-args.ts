import { parseArgs, type ParseArgsOptionsConfig } from 'node:util';
import { errorMessage } from '../common/errors.ts';

/**
 * The command line of a script: `--help` prints `help` and exits 0; an unknown option or a missing value prints one
 * line and exits 2, instead of a stack trace.
 */
export function scriptArgs<T extends ParseArgsOptionsConfig>(options: T, help: string) {
  const args = process.argv.slice(2);
  if (args.includes('--help') || args.includes('-h')) {
    console.log(help);
    process.exit(0);
  }
  try {
    return parseArgs({ args, options, strict: true }).values;
  } catch (error) {
    console.error(`${errorMessage(error)} (see --help)`);
    process.exit(2);
  }
}
