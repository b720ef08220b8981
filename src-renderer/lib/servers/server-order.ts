import type { ServerView } from '../../../src-preload/contract';

const collator = new Intl.Collator(undefined, { sensitivity: 'base', numeric: true });

/**
 * The rows in name order. The core lists servers in the order their connections were made, so a
 * server restarted by an edit (its secret moved to the keychain) would jump to the bottom (issue 23 item 10).
 */
export function byName(servers: readonly ServerView[]): ServerView[] {
  return [...servers].sort((a, b) => collator.compare(a.name, b.name));
}

/**
 * Which server just appeared in the list: the first name not in the previous list. The first
 * non-empty list seen (the page opening) brings nothing new.
 */
export class ArrivalWatch {
  private known: Set<string> | undefined;

  next(names: readonly string[]): string | undefined {
    const before = this.known;
    // Nothing listed yet (still loading) is no list seen: the first servers are no arrivals.
    if (before === undefined && names.length === 0) return undefined;
    this.known = new Set(names);
    if (before === undefined) return undefined;
    return names.find((name) => !before.has(name));
  }
}
