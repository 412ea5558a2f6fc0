import { Body, Controller, HttpCode, Param, Post } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { AdminOnly } from '../../common/auth/access.decorators';
import { ExistingOrganizationPipe } from '../organizations/existing-organization.pipe';
import { CreateInboundAssistantDto } from './dto/create-inbound-assistant.dto';
import { InboundAssistantResponse } from './inbound-assistant.response';
import { InboundAssistantsService } from './inbound-assistants.service';

@ApiExcludeController()
@AdminOnly()
@Controller('admin/v1/organizations/:orgId/inbound-assistants')
export class AdminInboundAssistantsController {
  constructor(private readonly assistants: InboundAssistantsService) {}

  @Post()
  @HttpCode(201)
  async create(@Param('orgId', ExistingOrganizationPipe) orgId: string, @Body() dto: CreateInboundAssistantDto) {
    return { data: InboundAssistantResponse.from(await this.assistants.create(orgId, dto.name, dto.systemPromptId)) };
  }
}
