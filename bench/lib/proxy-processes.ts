/** Child processes of the proxy bench (fake upstreams, the real `server/node.ts`) and their RSS. */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFile } from 'node:fs/promises';

export interface Child {
  proc: ChildProcess;
  /** Lines printed by the GC probe (bench/lib/proxy-gc-probe.cjs), as JSON text. */
  memLines: string[];
  /** The last ~1 MB the process wrote (stdout + stderr). */
  output(): string;
  /** Whether any of the `secrets` ever appeared in its output (scanned as it streams). */
  leaked(): boolean;
  stop(): Promise<void>;
}

/** Starts `node [nodeArgs] --import tsx <script>` and resolves once `ready` matches its output. */
export async function startChild(
  root: string,
  script: string,
  env: Record<string, string>,
  ready: RegExp,
  secrets: string[] = [],
  nodeArgs: string[] = [],
): Promise<{ child: Child; match: RegExpExecArray }> {
  const proc = spawn(process.execPath, [...nodeArgs, '--import', 'tsx', script], {
    cwd: root,
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let leaked = false;
  const memLines: string[] = [];
  let partial = '';
  const onStderr = (d: Buffer) => {
    // The GC probe writes whole lines to stderr; reassemble them across chunks.
    const lines = (partial + d.toString()).split('\n');
    partial = lines.pop() ?? '';
    for (const line of lines) if (line.startsWith('PAGEHAND_MEM ')) memLines.push(line.slice('PAGEHAND_MEM '.length));
  };
  const onData = (d: Buffer) => {
    // Scan with an overlap so a key split across two chunks is still seen.
    const window = out.slice(-200) + d.toString();
    if (secrets.some((s) => window.includes(s))) leaked = true;
    out += d.toString();
    // The proxy logs one line per request; keep only the tail.
    if (out.length > 2_000_000) out = out.slice(-1_000_000);
  };
  proc.stdout!.on('data', onData);
  proc.stderr!.on('data', onData);
  proc.stderr!.on('data', onStderr);
  const exited = new Promise<void>((r) => proc.once('exit', () => r()));
  const child: Child = {
    proc,
    memLines,
    output: () => out,
    leaked: () => leaked,
    stop: async () => {
      if (proc.exitCode === null) proc.kill('SIGTERM');
      await exited;
    },
  };
  for (let i = 0; i < 600; i++) {
    const m = ready.exec(out);
    if (m) return { child, match: m };
    if (proc.exitCode !== null) break;
    await new Promise((r) => setTimeout(r, 50));
  }
  await child.stop();
  throw new Error(`${script} did not start:\n${out.slice(-2000)}`);
}

/** Resident set size of a process in MiB, from /proc (Linux). */
export async function rssMiB(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1]);
  return kb / 1024;
}

/** Samples RSS every `everyMs` until stopped; returns the peak. */
export function rssSampler(pid: number, everyMs = 20): { stop(): Promise<{ peak: number; samples: number }> } {
  let peak = 0;
  let samples = 0;
  let running = true;
  const loop = (async () => {
    while (running) {
      peak = Math.max(peak, await rssMiB(pid));
      samples++;
      await new Promise((r) => setTimeout(r, everyMs));
    }
  })();
  return {
    stop: async () => {
      running = false;
      await loop;
      return { peak, samples };
    },
  };
}

export interface AfterGc {
  rssMiB: number;
  heapUsedMiB: number;
  externalMiB: number;
}

/** Asks a process started with the GC probe for a full GC and its memory right after. */
export async function memoryAfterGc(child: Child): Promise<AfterGc> {
  const before = child.memLines.length;
  child.proc.kill('SIGUSR2');
  for (let i = 0; i < 200 && child.memLines.length === before; i++) await new Promise((r) => setTimeout(r, 10));
  if (child.memLines.length === before) throw new Error('the GC probe did not answer');
  return JSON.parse(child.memLines[child.memLines.length - 1]!) as AfterGc;
}
