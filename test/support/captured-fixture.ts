import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { format } from 'prettier';

/** The provider type a fixture is declared as, and the import line that brings it in. */
export interface FixtureType {
  import: string;
  type: string;
}

export const VAPI = (type: string): FixtureType => ({
  import: `import type { Vapi } from '@vapi-ai/server-sdk';`,
  type: `Vapi.${type}`,
});

/** Vapi's SDK type as Vapi's API takes it (test/voice/fixtures/vapi-wire.ts corrects what the SDK types wrongly). */
export const VAPI_WIRE = (type: string): FixtureType => ({
  import: `import type * as VapiWire from './vapi-wire';`,
  type: `VapiWire.${type}`,
});

export const WHATSAPP_SEND: FixtureType = {
  import: `import type { GraphSendBody } from '../../../src/modules/platforms/messaging/whatsapp/whatsapp-graph.types';`,
  type: 'GraphSendBody',
};

/**
 * Provider bodies captured from a test run and committed as TypeScript typed by the provider's own SDK, so that
 * `npm run typecheck:providers` (tsc --strict) proves the provider accepts what our adapter really produced
 * (test/voice/fixtures, test/messaging/fixtures). The test compares the live body with the committed one;
 * `CAPTURE_FIXTURES=1` rewrites the file from the live body instead.
 */
export async function expectCapturedFixture(path: string, as: FixtureType, committed: unknown, live: unknown) {
  if (process.env.CAPTURE_FIXTURES !== '1') {
    expect(live).toEqual(committed);
    return;
  }
  const text =
    `// Captured by the test suite from our adapter's real output (CAPTURE_FIXTURES=1 rewrites it); do not edit.\n` +
    `// tsc --strict (npm run typecheck:providers) proves that ${as.type} accepts it.\n` +
    `${as.import}\n\n` +
    `export const captured: ${as.type} = ${JSON.stringify(live, null, 2)};\n`;
  const options = JSON.parse(readFileSync(join(__dirname, '../../.prettierrc'), 'utf8'));
  writeFileSync(path, await format(text, { ...options, parser: 'typescript' }));
}
