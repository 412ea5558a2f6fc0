/**
 * The test ping's event (POST /webhooks/{id}/test): sent to one endpoint, once, never retried and never re-sent
 * (a new ping is the way to try again). Its own file so the console can name it without the delivery code.
 */
export const WEBHOOK_TEST_EVENT = 'webhook.test';
