import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { CasesModule } from '../cases/cases.module';
import { MessagingModule } from '../messaging/messaging.module';
import { OutboxModule } from '../outbox/outbox.module';
import { ToolsModule } from '../tools/tools.module';
import { RunScenarioCommand } from './run-scenario.command';
import { Scenario } from './scenario.entity';
import { ScenarioRun } from './scenario-run.entity';
import { ScenarioRunEvents } from './scenario-run-events';
import { ScenarioRunJob } from './scenario-run.job';
import { ScenarioRunQueue } from './scenario-run-queue';
import { ScenarioRunsController } from './scenario-runs.controller';
import { ScenarioRunsRepository } from './scenario-runs.repository';
import { ScenarioRunsService } from './scenario-runs.service';
import { ScenariosController } from './scenarios.controller';
import { ScenariosRepository } from './scenarios.repository';
import { ScenariosService } from './scenarios.service';
import { StartScenarioRunsCommand } from './start-scenario-runs.command';

/**
 * The quality loop's scenarios (extension, docs/testing-your-assistant.md): scripted text conversations with a
 * case version, run off the request through the chat platform of the key's world and judged expectation by
 * expectation.
 */
@Module({
  imports: [TypeOrmModule.forFeature([Scenario, ScenarioRun]), CasesModule, ToolsModule, MessagingModule, OutboxModule],
  controllers: [ScenariosController, ScenarioRunsController],
  providers: [
    ScenariosRepository,
    ScenarioRunsRepository,
    ScenariosService,
    ScenarioRunsService,
    StartScenarioRunsCommand,
    RunScenarioCommand,
    ScenarioRunQueue,
    ScenarioRunJob,
    ScenarioRunEvents,
  ],
  exports: [ScenariosService, ScenarioRunsService],
})
export class ScenariosModule {}
