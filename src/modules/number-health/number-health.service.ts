import { Injectable } from '@nestjs/common';
import type { World } from '../../common/auth/world';
import type { PhoneNumber } from '../phone-numbers/phone-number.entity';
import { PhoneNumbersService } from '../phone-numbers/phone-numbers.service';
import { NumberHealthRepository } from './number-health.repository';
import { NumberHealthDayResponse, NumberHealthResponse } from './number-health.response';

/** A number's health read from its daily rows and its status row: a few rows whatever the calls number. */
@Injectable()
export class NumberHealthService {
  constructor(
    private readonly health: NumberHealthRepository,
    private readonly numbers: PhoneNumbersService,
  ) {}

  async get(world: World, phoneNumberId: string, days: number): Promise<NumberHealthResponse> {
    return this.of(await this.numbers.get(world.organizationId, phoneNumberId), world.livemode, days);
  }

  async of(number: PhoneNumber, livemode: boolean, days: number): Promise<NumberHealthResponse> {
    const [status, rows] = await Promise.all([
      this.health.status(number.id, livemode),
      this.health.days(number.id, livemode, days),
    ]);
    return { number: number.number, status, days: rows.map(NumberHealthDayResponse.from) };
  }
}
