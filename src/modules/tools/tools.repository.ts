import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { In, Repository } from 'typeorm';
import { uuidv7 } from '../../common/ids/uuid-v7';
import { Tx } from '../../infra/database/tx';
import { SigningSecrets } from '../../infra/secrets/signing-secrets';
import { Tool, ToolType } from './tool.entity';

/** The SQL of `tools`. */
@Injectable()
export class ToolsRepository {
  constructor(
    @InjectRepository(Tool) private readonly tools: Repository<Tool>,
    private readonly secrets: SigningSecrets,
  ) {}

  /** The organization's tools, newest first. */
  list(organizationId: string): Promise<Tool[]> {
    return this.tools.find({ where: { organizationId }, order: { createdAt: 'DESC', id: 'DESC' } });
  }

  find(id: string): Promise<Tool | null> {
    return this.tools.findOneBy({ id });
  }

  /** In the transaction that checked the organization's cap; the row as stored (its defaults filled). */
  async insert(tx: Tx, organizationId: string, type: ToolType, fields: Partial<Tool>): Promise<Tool> {
    const id = uuidv7();
    const secret = fields.secret ? this.secrets.seal(fields.secret) : fields.secret;
    await tx.insert(Tool, { id, organizationId, type, ...fields, secret });
    return tx.findOneByOrFail(Tool, { id });
  }

  async update(id: string, fields: Partial<Tool>): Promise<void> {
    await this.tools.update({ id }, fields);
  }

  /** The tool locked `FOR UPDATE` in `tx`, or null. */
  lockForDelete(tx: Tx, id: string): Promise<Tool | null> {
    return tx.createQueryBuilder(Tool, 't').setLock('pessimistic_write').where('t.id = :id', { id }).getOne();
  }

  async delete(tx: Tx, id: string): Promise<void> {
    await tx.delete(Tool, { id });
  }

  /** Those of `ids` that are the organization's tools, locked `FOR SHARE` until `tx` ends. */
  lockShared(tx: Tx, organizationId: string, ids: string[]): Promise<Tool[]> {
    return tx
      .createQueryBuilder(Tool, 't')
      .setLock('pessimistic_read')
      .where('t.organizationId = :organizationId AND t.id IN (:...ids)', { organizationId, ids })
      .getMany();
  }

  /** Those of `ids` that are the organization's tools, in no particular order. */
  findOwned(tx: Tx, organizationId: string, ids: string[]): Promise<Tool[]> {
    return tx.findBy(Tool, { organizationId, id: In(ids) });
  }

  /** The tool's signing secret only (opened), or null when the tool is gone. */
  async findSecret(id: string): Promise<string | null> {
    const found = await this.tools.findOne({ where: { id }, select: { id: true, secret: true } });
    return found?.secret ? this.secrets.open(found.secret) : null;
  }
}
