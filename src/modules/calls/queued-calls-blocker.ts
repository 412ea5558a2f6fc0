import { Injectable, OnModuleInit } from '@nestjs/common';
import { ReferenceRegistry } from '../../common/references/reference-registry';
import { CallsRepository } from './calls.repository';

/** Queued calls block deleting the case or outbound assistant they will be placed with. */
@Injectable()
export class QueuedCallsBlocker implements OnModuleInit {
  constructor(
    private readonly registry: ReferenceRegistry,
    private readonly calls: CallsRepository,
  ) {}

  onModuleInit(): void {
    this.registry.register({
      order: 1,
      one: 'queued call',
      many: 'queued calls',
      count: (tx, organizationId, target) => this.calls.countQueuedReferencing(tx, organizationId, target),
    });
  }
}
