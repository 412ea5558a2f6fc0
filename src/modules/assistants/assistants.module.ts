import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { CasesModule } from '../cases/cases.module';
import { OrganizationsModule } from '../organizations/organizations.module';
import { AdminInboundAssistantsController } from './admin-inbound-assistants.controller';
import { InboundAssistant } from './inbound-assistant.entity';
import { InboundAssistantsController } from './inbound-assistants.controller';
import { InboundAssistantsRepository } from './inbound-assistants.repository';
import { InboundAssistantsService } from './inbound-assistants.service';
import { OutboundAssistant } from './outbound-assistant.entity';
import { OutboundAssistantsController } from './outbound-assistants.controller';
import { OutboundAssistantsRepository } from './outbound-assistants.repository';
import { OutboundAssistantsService } from './outbound-assistants.service';

/** Inbound assistants (prompt from the library) and outbound assistants (voice configurations for calls). */
@Module({
  imports: [TypeOrmModule.forFeature([InboundAssistant, OutboundAssistant]), CasesModule, OrganizationsModule],
  controllers: [InboundAssistantsController, OutboundAssistantsController, AdminInboundAssistantsController],
  providers: [
    InboundAssistantsService,
    OutboundAssistantsService,
    InboundAssistantsRepository,
    OutboundAssistantsRepository,
  ],
  exports: [OutboundAssistantsService, InboundAssistantsService],
})
export class AssistantsModule {}
