import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { IsNull, LessThan, Repository } from 'typeorm';
import { uuidv7 } from '../../common/ids/uuid-v7';
import { ConsoleSession } from './console-session.entity';

/** The SQL of `console_sessions`. */
@Injectable()
export class ConsoleSessionsRepository {
  constructor(@InjectRepository(ConsoleSession) private readonly repo: Repository<ConsoleSession>) {}

  insert(tokenHash: Buffer, subject: string, expiresAt: Date): Promise<ConsoleSession> {
    return this.repo.save(
      this.repo.create({ id: uuidv7(), tokenHash, subject, organizationId: null, expiresAt, revokedAt: null }),
    );
  }

  /** The live session with this token hash: not revoked, not expired. */
  async findLive(tokenHash: Buffer): Promise<ConsoleSession | null> {
    const session = await this.repo.findOneBy({ tokenHash, revokedAt: IsNull() });
    return session && session.expiresAt.getTime() > Date.now() ? session : null;
  }

  async revoke(tokenHash: Buffer): Promise<void> {
    await this.repo.update({ tokenHash, revokedAt: IsNull() }, { revokedAt: new Date() });
  }

  /** Expired sessions are useless; dropped on each sign-in so the table stays small without a job. */
  async pruneExpired(): Promise<void> {
    await this.repo.delete({ expiresAt: LessThan(new Date()) });
  }
}
