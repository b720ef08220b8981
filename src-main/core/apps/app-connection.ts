import type { Handlers } from '../../../src-preload/contract';

type AppRequestHandlers = Pick<Handlers, 'callAppTool' | 'endAppRequests'>;

/**
 * The app frames one UI connection (a browser tab in web mode) made requests for: when the connection
 * goes, so do they (SECURITY U7). A closed tab sends no "frame closed" of its own, and its apps' requests
 * must not stay parked for a person who can no longer see them.
 */
export function appRequestsOfConnection(handlers: AppRequestHandlers): { handlers: Pick<Handlers, 'callAppTool'>; close: () => void } {
  const frames = new Set<string>();
  return {
    handlers: {
      callAppTool: (input) => {
        if (input.frame) frames.add(input.frame);
        return handlers.callAppTool(input);
      },
    },
    close: () => {
      for (const frame of frames) void handlers.endAppRequests({ frame, reason: 'closed' });
      frames.clear();
    },
  };
}
