import type { EventName, EventPayload } from '../../src-preload/contract';
import type { Scrubber } from './secrets/scrubber';

export type EventListener = <K extends EventName>(name: K, payload: EventPayload<K>) => void;

/**
 * Fan-out of contract events to whichever shell is listening (IPC window, WebSocket clients, tray).
 * The UI's edge (SECURITY S7): with a scrubber, every payload is scrubbed once before any listener sees it.
 */
export class EventHub {
  private readonly listeners = new Set<EventListener>();

  constructor(private readonly scrubber?: Scrubber) {}

  subscribe(listener: EventListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Anyone listening: a snapshot that costs work (tool token counts) is built only for a listener. */
  get listening(): boolean {
    return this.listeners.size > 0;
  }

  emit<K extends EventName>(name: K, payload: EventPayload<K>): void {
    if (this.listeners.size === 0) return;
    const scrubbed = this.scrubber ? this.scrubber.value(payload) : payload;
    for (const listener of this.listeners) listener(name, scrubbed);
  }
}
