/**
 * The run's state as the runner keeps it between pages (the pages read it at document start,
 * so a run survives a navigation to another origin, where sessionStorage would be empty).
 *
 * The newest save of the page that drives the run wins. A page left behind can still save
 * after the next page took the run over (its pagehide comes late on a cross-process
 * navigation), so once a run instance (`owner`) is followed by another, its saves are refused.
 */
export interface RunStateKeeper {
  /** Takes a save from a page; false when it is refused (not a run state, another run, a stale page). */
  save(json: unknown): boolean;
  /** The state to resume on the next page, as saved. */
  current(): string | undefined;
}

export function runStateKeeper(): RunStateKeeper {
  let json: string | undefined;
  let id: string | undefined;
  let owner: string | undefined;
  const retired = new Set<string>();
  return {
    save(raw) {
      if (typeof raw !== 'string') return false;
      let s: { v?: unknown; id?: unknown; owner?: unknown };
      try {
        s = JSON.parse(raw);
      } catch {
        return false;
      }
      if (!s || s.v !== 1 || typeof s.id !== 'string' || typeof s.owner !== 'string') return false;
      if ((id && s.id !== id) || retired.has(s.owner)) return false;
      if (owner && owner !== s.owner) retired.add(owner);
      id = s.id;
      owner = s.owner;
      json = raw;
      return true;
    },
    current: () => json,
  };
}
