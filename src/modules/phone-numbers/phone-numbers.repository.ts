import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { FindOptionsWhere, Repository } from 'typeorm';
import { uuidv7 } from '../../common/ids/uuid-v7';
import { queryEntities } from '../../infra/database/entity-rows';
import { Tx } from '../../infra/database/tx';
import type { VoicePlatform } from '../../infra/config/platforms';
import { NumberFallback, PhoneNumber } from './phone-number.entity';

/** The SQL of `phone_numbers`. */
@Injectable()
export class PhoneNumbersRepository {
  constructor(@InjectRepository(PhoneNumber) private readonly numbers: Repository<PhoneNumber>) {}

  /** The organization's numbers, newest first. */
  list(organizationId: string): Promise<PhoneNumber[]> {
    // The response's columns, named: never the voice platform's id, which only the admin API shows.
    return this.numbers.find({
      select: { id: true, number: true, label: true, platform: true, createdAt: true },
      where: { organizationId },
      order: { createdAt: 'DESC', id: 'DESC' },
    });
  }

  /** The organization's numbers with their platform ids and fallbacks (the admin API's view), newest first. */
  listWithPlatformIds(organizationId: string): Promise<PhoneNumber[]> {
    return this.numbers.find({ where: { organizationId }, order: { createdAt: 'DESC', id: 'DESC' } });
  }

  /**
   * The organization's number `number` (E.164), read by `tx` when the caller holds a transaction. Hand-written:
   * every call's creation reads it, and TypeORM's find builds its statement anew each time (a profile of POST
   * /calls, BENCHMARKS.md).
   */
  async findByNumber(organizationId: string, number: string, tx?: Tx): Promise<PhoneNumber | null> {
    const [row] = await queryEntities(
      tx ?? this.numbers.manager,
      PhoneNumber,
      'SELECT * FROM phone_numbers WHERE organization_id = $1 AND number = $2 LIMIT 1',
      [organizationId, number],
    );
    return row ?? null;
  }

  /** The row matching `where`, read by `tx` when the caller holds a transaction. */
  findOne(where: FindOptionsWhere<PhoneNumber>, tx?: Tx): Promise<PhoneNumber | null> {
    return tx ? tx.findOneBy(PhoneNumber, where) : this.numbers.findOneBy(where);
  }

  /** How many numbers each voice platform holds, every organization together. */
  async countByPlatform(): Promise<Map<VoicePlatform, number>> {
    const rows: Array<{ platform: VoicePlatform; n: number }> = await this.numbers.query(
      `SELECT platform, count(*)::int AS n FROM phone_numbers GROUP BY platform`,
    );
    return new Map(rows.map((r) => [r.platform, r.n]));
  }

  /** The number's fallback platform set or removed; null when the organization has no such number. */
  async setFallback(organizationId: string, id: string, fallback: NumberFallback | null): Promise<PhoneNumber | null> {
    await this.numbers.update({ id, organizationId }, { fallback });
    return this.numbers.findOneBy({ id, organizationId });
  }

  /** In the transaction that checked the organization's cap. */
  insert(
    tx: Tx,
    values: Pick<PhoneNumber, 'organizationId' | 'number' | 'label' | 'providerId' | 'platform' | 'fallback'> &
      Partial<Pick<PhoneNumber, 'telephony'>>,
  ): Promise<PhoneNumber> {
    return tx.save(tx.create(PhoneNumber, { id: uuidv7(), ...values }));
  }
}
