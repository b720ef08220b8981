import type { Api } from '../../../src-preload/contract';

declare global {
  interface Window {
    /** The Api the Electron preload exposes; absent in web mode. */
    switchboard?: Api;
  }
}

export {};
