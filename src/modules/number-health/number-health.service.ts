import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { World } from '../../common/auth/world';
import { ApiError } from '../../common/errors/api-error';
import { NumberHealthRepository } from './number-health.repository';
import { NumberHealthDayResponse, NumberHealthResponse } from './number-health.response';

/** A number's health read from its day rows and its status row: a few rows whatever the calls number. */
@Injectable()
export class NumberHealthService {
  constructor(private readonly health: NumberHealthRepository) {}

  /** 404 NOT_FOUND for a number that is not the world's organization's. */
  async get(world: World, phoneNumberId: string, days: number): Promise<NumberHealthResponse> {
    const read = await this.health.read(world.organizationId, phoneNumberId, world.livemode, days);
    if (!read) throw ApiError.notFound('Phone number');
    return { number: read.number, status: read.status, days: read.days.map(NumberHealthDayResponse.from) };
  }

  /** The numbers a campaign leaves out while it has others (docs/number-health.md), read on the caller's connection. */
  degradedAmong(m: EntityManager, world: World, numbers: readonly string[]): Promise<Set<string>> {
    return this.health.degradedAmong(m, world, numbers);
  }
}
