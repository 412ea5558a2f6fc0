import { createBullBoard } from '@bull-board/api';
import { BullMQAdapter } from '@bull-board/api/bullMQAdapter';
import { FastifyAdapter } from '@bull-board/fastify';
import type { FastifyInstance } from 'fastify';
import { JobQueue } from './job-queue';
import { QueueName } from './queue-names';

export const QUEUE_DASHBOARD_PATH = '/admin/queues';

/**
 * The admin check, handed in by the caller so infra stays free of the API's auth and error vocabulary.
 * `refusal` answers undefined when the request may pass, otherwise the response to send (a wrong token counts
 * against the client address's failed-authentication budget, as on every other door).
 */
export interface QueueDashboardAccess {
  readonly enabled: boolean;
  refusal(
    authorization: string | undefined,
    address: string,
  ): Promise<{ status: number; body: unknown; headers?: Record<string, string> } | undefined>;
}

/**
 * Bull Board at /admin/queues showing every queue, behind the admin token (the same check as the admin API).
 * It is a Fastify plugin, outside Nest routing, so the check runs as an onRequest hook over the whole plugin:
 * pages, assets and its JSON API alike. Without ADMIN_TOKEN it is not mounted (404, like the admin API).
 */
export async function mountQueueDashboard(
  fastify: FastifyInstance,
  jobs: JobQueue,
  admin: QueueDashboardAccess,
): Promise<void> {
  if (!admin.enabled) return;
  const serverAdapter = new FastifyAdapter();
  serverAdapter.setBasePath(QUEUE_DASHBOARD_PATH);
  createBullBoard({
    queues: Object.values(QueueName).map((name) => new BullMQAdapter(jobs.queue(name))),
    serverAdapter,
    options: { uiConfig: { boardTitle: 'Voice Calling queues' } },
  });
  await fastify.register(async (scope) => {
    scope.addHook('onRequest', async (request, reply) => {
      const refusal = await admin.refusal(request.headers.authorization, request.ip);
      if (refusal)
        return reply
          .headers(refusal.headers ?? {})
          .status(refusal.status)
          .send(refusal.body);
    });
    await scope.register(serverAdapter.registerPlugin(), { prefix: QUEUE_DASHBOARD_PATH });
  });
}
