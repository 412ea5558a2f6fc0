import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { IsNull, LessThan, Repository } from 'typeorm';
import { uuidv7 } from '../../common/ids/uuid-v7';
import { ConsoleSession } from './console-session.entity';

/** The SQL of `console_sessions`. */
@Injectable()
export class ConsoleSessionsRepository {
  constructor(@InjectRepository(ConsoleSession) private readonly repo: Repository<ConsoleSession>) {}

  insert(tokenHash: Buffer, subject: string, expiresAt: Date, adminTokenHash: Buffer): Promise<ConsoleSession> {
    return this.repo.save(
      this.repo.create({
        id: uuidv7(),
        tokenHash,
        subject,
        organizationId: null,
        adminTokenHash,
        expiresAt,
        revokedAt: null,
      }),
    );
  }

  /** The live session with this token hash, opened with this admin token: not revoked, not expired. */
  async findLive(tokenHash: Buffer, adminTokenHash: Buffer): Promise<ConsoleSession | null> {
    const session = await this.repo.findOneBy({ tokenHash, revokedAt: IsNull() });
    if (!session || session.expiresAt.getTime() <= Date.now()) return null;
    return session.adminTokenHash?.equals(adminTokenHash) ? session : null;
  }

  /** Revokes every live session; the number revoked. */
  async revokeAll(): Promise<number> {
    const { affected } = await this.repo.update({ revokedAt: IsNull() }, { revokedAt: new Date() });
    return affected ?? 0;
  }

  async revoke(tokenHash: Buffer): Promise<void> {
    await this.repo.update({ tokenHash, revokedAt: IsNull() }, { revokedAt: new Date() });
  }

  /** Expired sessions are useless; dropped on each sign-in so the table stays small without a job. */
  async pruneExpired(): Promise<void> {
    await this.repo.delete({ expiresAt: LessThan(new Date()) });
  }
}
