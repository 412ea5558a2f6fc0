import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AddDoNotCallCommand } from './add-do-not-call.command';
import { DoNotCallEntry } from './do-not-call-entry.entity';
import { DoNotCallController } from './do-not-call.controller';
import { DoNotCallRepository } from './do-not-call.repository';
import { DoNotCallService } from './do-not-call.service';

/** The do-not-call ledger (extension, docs/contracts/dialer.md), checked before every dial. */
@Module({
  imports: [TypeOrmModule.forFeature([DoNotCallEntry])],
  controllers: [DoNotCallController],
  providers: [DoNotCallRepository, AddDoNotCallCommand, DoNotCallService],
  exports: [DoNotCallService, AddDoNotCallCommand],
})
export class DoNotCallModule {}
