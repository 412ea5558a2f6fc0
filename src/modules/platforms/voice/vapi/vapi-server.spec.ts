import { VAPI_REDELIVERY_WINDOW_MS } from '../../../../infra/config/app-config';
import { BACKOFF, vapiServer } from './vapi-server';

describe('vapiServer', () => {
  it('carries the backoff plan whose redelivery window the report grace is held to', () => {
    const server = vapiServer({ publicBaseUrl: 'https://api.example.com', vapi: { credentialId: undefined } as never });
    expect(server.backoffPlan).toMatchObject({ type: 'exponential', ...BACKOFF });
    // Exponential from the base: base x (1 + 2 + ... + 2^(retries-1)).
    const windowSeconds = BACKOFF.baseDelaySeconds * (2 ** BACKOFF.maxRetries - 1);
    expect(windowSeconds * 1000).toBe(VAPI_REDELIVERY_WINDOW_MS);
  });
});
