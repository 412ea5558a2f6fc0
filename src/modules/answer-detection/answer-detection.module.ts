import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { CallsModule } from '../calls/calls.module';
import { AnswerDetectionReportController } from './answer-detection-report.controller';
import { CallLabel } from './call-label.entity';
import { CallLabelsController } from './call-labels.controller';
import { CallLabelsRepository } from './call-labels.repository';
import { CallLabelsService } from './call-labels.service';

/** Answer detection measured: people's labels on calls and the report comparing them with the platform's verdict. */
@Module({
  imports: [TypeOrmModule.forFeature([CallLabel]), CallsModule],
  controllers: [CallLabelsController, AnswerDetectionReportController],
  providers: [CallLabelsRepository, CallLabelsService],
  exports: [CallLabelsService],
})
export class AnswerDetectionModule {}
