import { Injectable, OnModuleInit } from '@nestjs/common';
import type { World } from '../../common/auth/world';
import { EventBodies, EventBodyRenderers, EventFamily } from '../outbox/event-bodies';
import type { CallEventPayload } from '../outbox/event-payloads';
import { CallResponse } from './call.response';
import { CallsRepository } from './calls.repository';

/** The body of every call event: the Call as it is now, without its transcript (docs/contracts/conventions.md, "Webhooks"). */
@Injectable()
export class CallEventBodies implements OnModuleInit {
  constructor(
    private readonly bodies: EventBodies,
    private readonly calls: CallsRepository,
  ) {}

  onModuleInit(): void {
    const render = (world: World, { callId }: CallEventPayload) => this.render(world, callId);
    this.bodies.register({
      'call.started': render,
      'call.ended': render,
      'call.failed': render,
      'call.scheduled': render,
      'call.cancelled': render,
    } satisfies EventBodyRenderers<EventFamily<'call'>>);
  }

  private async render(world: World, callId: string): Promise<Record<string, unknown> | null> {
    const call = await this.calls.findOwned(world, callId);
    return call && { ...CallResponse.from(call) };
  }
}
