import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { OrganizationsModule } from '../organizations/organizations.module';
import { AdminToolsController } from './admin-tools.controller';
import { Tool } from './tool.entity';
import { ToolsService } from './tools.service';

/** Tools (docs/tools.md). Exports `ToolsService` for attaching tools to cases and carrying them on calls. */
@Module({
  imports: [TypeOrmModule.forFeature([Tool]), OrganizationsModule],
  controllers: [AdminToolsController],
  providers: [ToolsService],
  exports: [ToolsService],
})
export class ToolsModule {}
