import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { DestinationsModule } from '../destinations/destinations.module';
import { OrganizationsModule } from '../organizations/organizations.module';
import { AdminToolsController } from './admin-tools.controller';
import { Tool } from './tool.entity';
import { FunctionToolInvoker } from './function-tool-invoker';
import { ToolsRepository } from './tools.repository';
import { ToolsService } from './tools.service';

/** Tools (docs/tools.md). Exports `ToolsService` for attaching tools to cases and carrying them on
 * calls, and `FunctionToolInvoker` for calling function tools during calls. */
@Module({
  imports: [TypeOrmModule.forFeature([Tool]), OrganizationsModule, DestinationsModule],
  controllers: [AdminToolsController],
  providers: [ToolsService, ToolsRepository, FunctionToolInvoker],
  exports: [ToolsService, FunctionToolInvoker],
})
export class ToolsModule {}
