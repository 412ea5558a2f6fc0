export { VoiceCallingClient, type ClientOptions } from './client';
export { VoiceCallingError, type ErrorCode } from './errors';
export type { Body, Data, Query, RequestOptions } from './types';
export type { components, paths } from './schema';
export { verifyWebhook } from './webhooks';
