import { createContractServerClient } from '../../src-main/core/contract-server/client';
import { startContractServer, type RunningServer } from '../../src-server';

/**
 * A contract server on seeded data that a core test stops and starts again on the same port and
 * data, as a laptop loses and finds it, with REST clients straight to it (another user, another laptop).
 */
export function stoppableServer(dataDir: string) {
  let server: RunningServer | null = null;
  let port = 0;
  let url = '';
  return {
    /** Its address, also while it is stopped. */
    url: () => url,
    running: () => server !== null,
    async start(): Promise<void> {
      server = await startContractServer({ port, dataDir });
      url = server.url;
      port = Number(new URL(server.url).port);
    },
    async stop(): Promise<void> {
      await server?.close();
      server = null;
    },
    async rest(username: string, password: string) {
      const client = createContractServerClient(url);
      const { token } = await client.call('login', { body: { username, password } });
      return { client, token };
    },
  };
}
