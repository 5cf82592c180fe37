/**
 * The `pagehand` command (package.json "bin", built to dist/cli.js): `pagehand run --url URL
 * "task"` runs a task in headless Chromium with the bundle injected. See `pagehand --help`.
 */
import { createRequire } from 'node:module';
import { HELP, parseArgs } from './args';
import { runCommand } from './run';
import { testCommand } from './test-command';

async function main(argv: string[]): Promise<number> {
  const parsed = parseArgs(argv, process.env);
  switch (parsed.kind) {
    case 'help':
      process.stdout.write(HELP);
      return 0;
    case 'version': {
      const pkg = createRequire(import.meta.url)('../package.json') as { version: string };
      process.stdout.write(`${pkg.version}\n`);
      return 0;
    }
    case 'error':
      process.stderr.write(`pagehand: ${parsed.message}\n`);
      return 1;
    case 'run':
      return runCommand(parsed.args, { env: process.env, stdout: process.stdout, stderr: process.stderr, stdin: process.stdin });
    case 'test':
      return testCommand(parsed.args, { env: process.env, stdout: process.stdout, stderr: process.stderr, stdin: process.stdin });
  }
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
    // Playwright's connection may keep the event loop alive after the browser closed.
    setTimeout(() => process.exit(code), 200).unref();
  },
  (e) => {
    process.stderr.write(`pagehand: ${(e as Error)?.stack ?? e}\n`);
    process.exit(1);
  },
);
