import { Injectable, OnModuleInit } from '@nestjs/common';
import type { World } from '../../common/auth/world';
import { EventBodies, EventBodyRenderers, EventFamily } from '../outbox/event-bodies';
import type { NumberHealthChangedPayload } from '../outbox/event-payloads';
import { PhoneNumberResponse } from '../phone-numbers/phone-number.response';
import { PhoneNumbersService } from '../phone-numbers/phone-numbers.service';
import { DEFAULT_HEALTH_DAYS } from './dto/number-health-query.dto';
import { NumberHealthService } from './number-health.service';

/**
 * `phone_number.health_changed` (extension): the body is the number with its health, its last week's days as
 * they are when the delivery is sent, and the move the event records (`status`, `previousStatus`).
 */
@Injectable()
export class NumberHealthEvents implements OnModuleInit {
  constructor(
    private readonly bodies: EventBodies,
    private readonly numbers: PhoneNumbersService,
    private readonly health: NumberHealthService,
  ) {}

  onModuleInit(): void {
    this.bodies.register({
      'phone_number.health_changed': (world, payload) => this.render(world, payload),
    } satisfies EventBodyRenderers<EventFamily<'phone_number'>>);
  }

  private async render(world: World, payload: NumberHealthChangedPayload): Promise<Record<string, unknown> | null> {
    const number = await this.numbers.findById(world.organizationId, payload.phoneNumberId);
    if (!number) return null;
    const health = await this.health.get(world, number.id, DEFAULT_HEALTH_DAYS);
    return {
      ...PhoneNumberResponse.from(number),
      health: { ...health, status: payload.status, previousStatus: payload.previousStatus },
    };
  }
}
