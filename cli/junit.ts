/**
 * The test kit's results as JUnit XML, the format CI systems read (one <testsuite> per tasks
 * file, one <testcase> per task, a <failure> with what went wrong). Pure.
 */

export interface CaseResult {
  name: string;
  ok: boolean;
  /** Seconds. */
  time: number;
  /** Why it failed: the run's end or the checks that did not hold. */
  failure?: string;
  /** Not run (another shard's, or stopped before it). */
  skipped?: boolean;
  /** A line for the report beside the result (mode, steps, model calls). */
  detail?: string;
  /** A screenshot of the page where it failed. */
  screenshot?: string;
}

/** Text as XML character data or attribute value (the characters XML 1.0 cannot hold dropped). */
export function xmlText(s: string): string {
  return s
    .replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g, '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;');
}

export function junitXml(suite: string, cases: readonly CaseResult[], timestamp = new Date()): string {
  const failures = cases.filter((c) => !c.ok && !c.skipped).length;
  const skipped = cases.filter((c) => c.skipped).length;
  const time = cases.reduce((s, c) => s + c.time, 0);
  const lines = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="pagehand" tests="${cases.length}" failures="${failures}" skipped="${skipped}" errors="0" time="${time.toFixed(3)}">`,
    `  <testsuite name="${xmlText(suite)}" tests="${cases.length}" failures="${failures}" skipped="${skipped}" errors="0" time="${time.toFixed(3)}" timestamp="${timestamp.toISOString()}">`,
  ];
  for (const c of cases) {
    const open = `    <testcase name="${xmlText(c.name)}" classname="${xmlText(suite)}" time="${c.time.toFixed(3)}"`;
    if (c.skipped) lines.push(`${open}>`, '      <skipped/>', '    </testcase>');
    else if (c.ok) lines.push(`${open}/>`);
    else {
      const message = (c.failure ?? 'failed').split('\n')[0]!;
      lines.push(`${open}>`, `      <failure message="${xmlText(message)}">${xmlText(c.failure ?? '')}</failure>`);
      if (c.screenshot) lines.push(`      <system-out>${xmlText(`[[ATTACHMENT|${c.screenshot}]]`)}</system-out>`);
      lines.push('    </testcase>');
    }
  }
  lines.push('  </testsuite>', '</testsuites>', '');
  return lines.join('\n');
}
