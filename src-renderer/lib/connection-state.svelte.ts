import type { ApiConnection, ConnectionState } from './api';

/** The Api connection's state as reactive state (web mode can lose its socket; Electron never does). */
export class ConnectionStore {
  state = $state<ConnectionState>('connecting');

  constructor(connection: ApiConnection) {
    this.state = connection.state;
    connection.onStateChange((next) => {
      this.state = next;
    });
  }
}
