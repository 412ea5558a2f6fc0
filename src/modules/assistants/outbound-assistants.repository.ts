import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Not, Repository } from 'typeorm';
import { queryEntities } from '../../infra/database/entity-rows';
import { Tx } from '../../infra/database/tx';
import { OutboundAssistant } from './outbound-assistant.entity';
import { OutboundAssistantSummary } from './outbound-assistant.response';

/** The SQL of `outbound_assistants`. */
@Injectable()
export class OutboundAssistantsRepository {
  constructor(@InjectRepository(OutboundAssistant) private readonly assistants: Repository<OutboundAssistant>) {}

  /** Newest first; the summary's columns only: never the system prompt (up to 50,000 characters each). */
  list(organizationId: string): Promise<OutboundAssistantSummary[]> {
    return this.assistants.find({
      select: {
        id: true,
        name: true,
        description: true,
        isDefault: true,
        voice: true,
        model: true,
        createdAt: true,
        updatedAt: true,
      },
      where: { organizationId },
      order: { createdAt: 'DESC', id: 'DESC' },
    });
  }

  /** Read by `tx` when the caller holds a transaction. */
  /** Hand-written: every call's creation reads it (see PhoneNumbersRepository.findByNumber). */
  async findDefault(organizationId: string, tx?: Tx): Promise<OutboundAssistant | null> {
    const [row] = await queryEntities(
      tx ?? this.assistants.manager,
      OutboundAssistant,
      'SELECT * FROM outbound_assistants WHERE organization_id = $1 AND is_default LIMIT 1',
      [organizationId],
    );
    return row ?? null;
  }

  find(organizationId: string, id: string): Promise<OutboundAssistant | null> {
    return this.assistants.findOneBy({ id, organizationId });
  }

  /** The row locked `FOR SHARE` (`pessimistic_read`) or `FOR UPDATE` (`pessimistic_write`) in `tx`, or null. */
  lock(
    tx: Tx,
    organizationId: string,
    id: string,
    lock: 'pessimistic_read' | 'pessimistic_write',
  ): Promise<OutboundAssistant | null> {
    return tx
      .createQueryBuilder(OutboundAssistant, 'a')
      .setLock(lock)
      .where('a.id = :id AND a.organizationId = :organizationId', { id, organizationId })
      .getOne();
  }

  insert(tx: Tx, values: Partial<OutboundAssistant>): Promise<OutboundAssistant> {
    return tx.save(tx.create(OutboundAssistant, values));
  }

  /** Applies `patch` and reads the row back, in the transaction that locked it. */
  async update(
    tx: Tx,
    organizationId: string,
    id: string,
    patch: Partial<OutboundAssistant>,
  ): Promise<OutboundAssistant> {
    await tx.update(OutboundAssistant, { id, organizationId }, patch);
    return tx.findOneByOrFail(OutboundAssistant, { id, organizationId });
  }

  /** Unsets the organization's default unless it is `keepId` (under the caller's default lock). */
  async unsetDefaultExcept(tx: Tx, organizationId: string, keepId: string): Promise<void> {
    await tx.update(OutboundAssistant, { organizationId, isDefault: true, id: Not(keepId) }, { isDefault: false });
  }

  async delete(tx: Tx, organizationId: string, id: string): Promise<void> {
    await tx.delete(OutboundAssistant, { id, organizationId });
  }
}
