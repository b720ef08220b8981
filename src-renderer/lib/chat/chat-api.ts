import type { z } from 'zod';
import type { Api, Result } from '../../../src-preload/contract';
import type { chatEvents, chatInvokes } from '../../../src-preload/contract/chat';

type Invokes<T extends Record<string, { input: z.ZodType; output: unknown }>> = {
  [K in keyof T]: (input: z.input<T[K]['input']>) => Promise<Result<T[K]['output']>>;
};
type Subscribers<T extends Record<string, unknown>> = {
  [K in keyof T & string as `on${Capitalize<K>}`]: (listener: (payload: T[K]) => void) => () => void;
};

/**
 * What the chat UI needs from the Api: the chat area of the contract plus the server invokes for
 * prompts, resources and links. Built from the contract's types the same way `Api` is, so once the
 * chat area is composed into `Api`, an `Api` is a `ChatApi`.
 */
export type ChatApi = Invokes<typeof chatInvokes> &
  Subscribers<typeof chatEvents> &
  Pick<Api, 'listServers' | 'listPrompts' | 'getPrompt' | 'listResources' | 'readResource' | 'openExternal'>;
