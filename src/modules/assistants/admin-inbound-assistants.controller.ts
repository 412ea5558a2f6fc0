import { Body, Controller, HttpCode, Param, Post } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { AdminOnly } from '../../common/auth/access.decorators';
import { IdParamPipe } from '../../common/ids/id-param.pipe';
import { OrganizationsService } from '../organizations/organizations.service';
import { CreateInboundAssistantDto } from './dto/create-inbound-assistant.dto';
import { InboundAssistantResponse } from './inbound-assistant.response';
import { InboundAssistantsService } from './inbound-assistants.service';

@ApiExcludeController()
@AdminOnly()
@Controller('admin/v1/organizations/:orgId/inbound-assistants')
export class AdminInboundAssistantsController {
  constructor(
    private readonly assistants: InboundAssistantsService,
    private readonly organizations: OrganizationsService,
  ) {}

  @Post()
  @HttpCode(201)
  async create(@Param('orgId', IdParamPipe) orgId: string, @Body() dto: CreateInboundAssistantDto) {
    await this.organizations.mustExist(orgId);
    return { data: InboundAssistantResponse.from(await this.assistants.create(orgId, dto.name, dto.systemPromptId)) };
  }
}
