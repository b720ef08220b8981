import { APP_PENDING_LIMIT } from '../../../src-preload/contract/values';

/** A link the app asked to open, waiting for the person's click. */
export interface LinkAsk {
  id: number;
  url: string;
}

/**
 * What one app has waiting on the person or the host (SECURITY U7): its tool calls (parked for approval
 * or running) and its link asks. At most `limit`; the next is refused at once with an error the app
 * reads, so an app cannot pile up requests. Link asks wait here until the person answers each one.
 */
export class PendingRequests {
  count = $state(0);
  links = $state.raw<LinkAsk[]>([]);
  // Not state: what the UI shows is `links`; these are the promises' resolvers behind it.
  // eslint-disable-next-line svelte/prefer-svelte-reactivity
  private readonly answers = new Map<number, (open: boolean) => void>();
  private nextId = 0;

  constructor(readonly limit = APP_PENDING_LIMIT) {}

  /** Runs one request of the app, or refuses it at once when `limit` are already waiting. */
  async run<T>(request: () => Promise<T>): Promise<T> {
    if (this.count >= this.limit) throw new Error(`this app already has ${this.limit} requests waiting; this one was refused (the person can answer or deny those first)`);
    this.count += 1;
    try {
      return await request();
    } finally {
      this.count -= 1;
    }
  }

  /** Waits for the person's answer on opening `url`: true only on their click of "Open" for this very ask. */
  askToOpen(url: string): Promise<boolean> {
    return this.run(
      () =>
        new Promise<boolean>((resolve) => {
          const id = ++this.nextId;
          this.answers.set(id, resolve);
          this.links = [...this.links, { id, url }];
        }),
    );
  }

  answerLink(id: number, open: boolean): void {
    const resolve = this.answers.get(id);
    if (!resolve) return;
    this.answers.delete(id);
    this.links = this.links.filter((l) => l.id !== id);
    resolve(open);
  }

  /** Every link ask answered "do not open" (Deny all, or the app going away). */
  declineLinks(): void {
    for (const id of [...this.answers.keys()]) this.answerLink(id, false);
  }
}
