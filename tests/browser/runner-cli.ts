/**
 * The built `pagehand` command run from a test as a user runs it (`node dist/cli.js …`): its own
 * Chromium, stdin not a terminal (as in CI), no personal token from the machine. Never a timing
 * assertion: only a bound after which the process is killed, so a hung run fails its test.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { traceRecord } from '../trace/trace';

export const CLI = fileURLToPath(new URL('../../dist/cli.js', import.meta.url));
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export interface Exit {
  code: number | null;
  stdout: string;
  stderr: string;
}

export interface CliOptions {
  /** Added to the environment (which always has CHROMIUM_PATH and no PAGEHAND_TOKEN). */
  env?: Record<string, string>;
  cwd?: string;
  /** Killed after this long (default 170 s, under the runner tests' own timeouts). */
  boundMs?: number;
}

export function runCli(args: string[], options: CliOptions = {}): Promise<Exit> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], {
      cwd: options.cwd,
      env: { ...process.env, CHROMIUM_PATH: CHROMIUM, PAGEHAND_TOKEN: '', PAGEHAND_TOKEN_FILE: '/nonexistent/pagehand-token', ...options.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    const bound = setTimeout(() => child.kill('SIGKILL'), options.boundMs ?? 170_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(bound);
      traceRecord('cli', { args, code, stdout, stderr });
      resolve({ code, stdout, stderr });
    });
  });
}

/** The --json output: one object per line. */
export const jsonLines = (out: Exit): any[] =>
  out.stdout
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));

/** The flags that point a run at a test's proxy and scripted model (`--proxy … --token … --model …`). */
export const proxyFlags = (stack: { proxyUrl: string; token: string }, model: string): string[] => [
  '--proxy',
  stack.proxyUrl,
  '--token',
  stack.token,
  '--model',
  model,
];
