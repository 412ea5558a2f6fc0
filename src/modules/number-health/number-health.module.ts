import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { PhoneNumbersModule } from '../phone-numbers/phone-numbers.module';
import { NumberDay } from './number-day.entity';
import { NumberHealth } from './number-health.entity';
import { NumberHealthController } from './number-health.controller';
import { NumberHealthEvents } from './number-health-events';
import { NumberHealthRepository } from './number-health.repository';
import { NumberHealthService } from './number-health.service';
import { RecordNumberOutcomeCommand } from './record-number-outcome.command';

/**
 * The health of the numbers calls are placed from: daily figures and a status counted as each call ends
 * (RecordNumberOutcomeCommand, run by the calls module in the transaction that finishes a call).
 */
@Module({
  imports: [TypeOrmModule.forFeature([NumberDay, NumberHealth]), PhoneNumbersModule],
  controllers: [NumberHealthController],
  providers: [NumberHealthRepository, NumberHealthService, NumberHealthEvents, RecordNumberOutcomeCommand],
  exports: [RecordNumberOutcomeCommand, NumberHealthService],
})
export class NumberHealthModule {}
