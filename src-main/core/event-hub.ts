import type { EventName, EventPayload } from '../../src-preload/contract';

export type EventListener = <K extends EventName>(name: K, payload: EventPayload<K>) => void;

/** Fan-out of contract events to whichever shell is listening (IPC window, WebSocket clients, tray). */
export class EventHub {
  private readonly listeners = new Set<EventListener>();

  subscribe(listener: EventListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Anyone listening: a snapshot that costs work (tool token counts) is built only for a listener. */
  get listening(): boolean {
    return this.listeners.size > 0;
  }

  emit<K extends EventName>(name: K, payload: EventPayload<K>): void {
    for (const listener of this.listeners) listener(name, payload);
  }
}
