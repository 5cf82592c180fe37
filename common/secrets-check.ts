/**
 * The values a run may type but not see (`run(task, { secrets })`, the runner's `--secret`):
 * the rule for their names and values, checked by the bundle and the CLI alike. Pure.
 */
const NAME = /^[A-Za-z][A-Za-z0-9_-]{0,31}$/;
/** Shorter values would blank too much page text and could not be told apart from it. */
const SECRET_MIN_LENGTH = 3;

/** Why `secrets` cannot be used, or undefined. */
export function secretsProblem(secrets: unknown): string | undefined {
  if (secrets === undefined) return undefined;
  if (typeof secrets !== 'object' || secrets === null || Array.isArray(secrets)) return 'secrets must be an object of name → value';
  for (const [name, value] of Object.entries(secrets)) {
    if (!NAME.test(name)) return `a secret's name must be a letter then letters, digits, _ or - (got ${JSON.stringify(name)})`;
    if (typeof value !== 'string') return `the secret "${name}" must be a string`;
    if ([...value].length < SECRET_MIN_LENGTH)
      return `the secret "${name}" must have at least ${SECRET_MIN_LENGTH} characters (a shorter value cannot be hidden in page text)`;
  }
  return undefined;
}
