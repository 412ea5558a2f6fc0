import { Body, Controller, HttpCode, Param, Post } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { AdminOnly } from '../../common/auth/access.decorators';
import { ApiDataResponse } from '../../common/openapi/api-data-response.decorator';
import { ApiAdminErrors } from '../../common/openapi/api-errors.decorator';
import { ExistingOrganizationPipe } from '../organizations/existing-organization.pipe';
import { CreateInboundAssistantDto } from './dto/create-inbound-assistant.dto';
import { InboundAssistantResponse } from './inbound-assistant.response';
import { InboundAssistantsService } from './inbound-assistants.service';

@ApiTags('Cases and assistants')
@AdminOnly()
@Controller('admin/v1/organizations/:orgId/inbound-assistants')
export class AdminInboundAssistantsController {
  constructor(private readonly assistants: InboundAssistantsService) {}

  @Post()
  @HttpCode(201)
  @ApiOperation({
    operationId: 'adminCreateInboundAssistant',
    summary: 'Create an inbound assistant answering with a prompt-library entry',
    description:
      "The organization's first inbound assistant (by creation) answers its inbound calls. 404 when " +
      "`systemPromptId` is not an entry of the organization's library; 422 MAX_ASSISTANTS at the cap.",
  })
  @ApiDataResponse(InboundAssistantResponse, { status: 201 })
  @ApiAdminErrors('MAX_ASSISTANTS')
  async create(
    @Param('orgId', ExistingOrganizationPipe) orgId: string,
    @Body() dto: CreateInboundAssistantDto,
  ): Promise<{ data: InboundAssistantResponse }> {
    return { data: InboundAssistantResponse.from(await this.assistants.create(orgId, dto.name, dto.systemPromptId)) };
  }
}
