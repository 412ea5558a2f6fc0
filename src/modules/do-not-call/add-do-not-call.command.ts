import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { lockAdmission } from '../limits/call-admission';
import { DoNotCallEntry, DoNotCallSource } from './do-not-call-entry.entity';
import { DoNotCallRepository } from './do-not-call.repository';
import { World } from '../../common/auth/world';

export interface DoNotCallListing {
  number: string;
  reason: string | null;
  source: DoNotCallSource;
}

/**
 * Lists a number, inside the caller's transaction, under the organization's admission lock: the dispatcher
 * checks the ledger under the same lock right before each dial, so once this commits no later dial decision
 * can miss the listing. Listing a number already listed keeps the first listing.
 */
@Injectable()
export class AddDoNotCallCommand {
  constructor(private readonly repository: DoNotCallRepository) {}

  async execute(
    tx: EntityManager,
    world: World,
    listing: DoNotCallListing,
  ): Promise<{ entry: DoNotCallEntry; created: boolean }> {
    await lockAdmission(tx, world.organizationId);
    return this.repository.add(tx, world, listing);
  }
}
