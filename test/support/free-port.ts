import { createServer } from 'node:net';

/**
 * A port free now on 127.0.0.1, for a process a test starts that must be told its port (the demo, Prism, a Redis, a
 * spawned server). Below Linux's ephemeral range (32768-60999): a port the system hands out (`listen(0)`) is in that
 * range, and in the seconds before the process binds it an outgoing connection of a parallel test may be given it
 * (seen as EADDRINUSE). Random, so parallel files rarely try the same one; taken ones are skipped.
 */
export async function freePort(): Promise<number> {
  for (;;) {
    const port = 20000 + Math.floor(Math.random() * 12000);
    const server = createServer();
    const bound = await new Promise<boolean>((resolve) => {
      server.once('error', () => resolve(false));
      server.listen(port, '127.0.0.1', () => resolve(true));
    });
    if (bound) {
      await new Promise((resolve) => server.close(resolve));
      return port;
    }
  }
}
