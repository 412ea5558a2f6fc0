import { createBullBoard } from '@bull-board/api';
import { BullMQAdapter } from '@bull-board/api/bullMQAdapter';
import { FastifyAdapter } from '@bull-board/fastify';
import type { FastifyInstance } from 'fastify';
import { AdminTokenCheck } from '../../common/auth/admin-token';
import { toErrorResponse } from '../../common/errors/to-error-response';
import { JobQueue } from './job-queue.service';
import { QueueName } from './queue-names';

export const QUEUE_DASHBOARD_PATH = '/admin/queues';

/**
 * Bull Board at /admin/queues showing every queue, behind the admin token (the same check as the admin API).
 * It is a Fastify plugin, outside Nest routing, so the check runs as an onRequest hook over the whole plugin:
 * pages, assets and its JSON API alike. Without ADMIN_TOKEN it is not mounted (404, like the admin API).
 */
export async function mountQueueDashboard(
  fastify: FastifyInstance,
  jobs: JobQueue,
  adminToken: string | undefined,
): Promise<void> {
  const admin = new AdminTokenCheck(adminToken);
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
      try {
        admin.verify(request.headers.authorization);
      } catch (error) {
        const response = toErrorResponse(error);
        return reply.status(response.status).send(response.body);
      }
    });
    await scope.register(serverAdapter.registerPlugin(), { prefix: QUEUE_DASHBOARD_PATH });
  });
}
