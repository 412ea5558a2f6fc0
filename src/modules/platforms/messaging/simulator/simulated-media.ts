import { Readable } from 'node:stream';
import type { MediaStream } from '../../../messaging/providers/messaging-provider';

/**
 * The file of a test message's media (README "Test mode"): the simulator keeps no files, so it serves a short
 * text naming the media id. The provider is never asked: a test message's id was never the provider's.
 */
export function simulatedMedia(mediaId: string): MediaStream {
  const bytes = Buffer.from(`Simulated media file ${mediaId}\n`, 'utf8');
  return { body: Readable.from([bytes]), contentType: 'application/octet-stream', length: bytes.length };
}
