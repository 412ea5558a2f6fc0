import { Body, Controller, Get, Param, Patch } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { RequireScope } from '../../common/auth/access.decorators';
import { OrgId } from '../../common/auth/auth-context';
import { IdParamPipe } from '../../common/ids/id-param.pipe';
import { ApiDataResponse } from '../../common/openapi/api-data-response.decorator';
import { ApiErrors } from '../../common/openapi/api-errors.decorator';
import { UpdateInboundAssistantDto } from './dto/update-inbound-assistant.dto';
import { InboundAssistantResponse } from './inbound-assistant.response';
import { InboundAssistantsService, MAX_INBOUND_ASSISTANTS } from './inbound-assistants.service';

@ApiTags('Assistants')
@Controller('api/v1/assistants/inbound')
export class InboundAssistantsController {
  constructor(private readonly assistants: InboundAssistantsService) {}

  @Get()
  @RequireScope('assistants:read')
  @ApiOperation({
    operationId: 'listInboundAssistants',
    summary: 'Inbound assistants (not paginated)',
    description: `Not paginated: an organization has at most ${MAX_INBOUND_ASSISTANTS} inbound assistants (the dashboard's create refuses one more with 422 MAX_ASSISTANTS).`,
  })
  @ApiDataResponse(InboundAssistantResponse, { isArray: true })
  async list(@OrgId() orgId: string): Promise<{ data: InboundAssistantResponse[] }> {
    return { data: (await this.assistants.list(orgId)).map(InboundAssistantResponse.from) };
  }

  @Get(':id')
  @RequireScope('assistants:read')
  @ApiOperation({ operationId: 'getInboundAssistant', summary: 'Get an inbound assistant' })
  @ApiDataResponse(InboundAssistantResponse)
  @ApiErrors('VALIDATION_ERROR', 'NOT_FOUND')
  async get(@OrgId() orgId: string, @Param('id', IdParamPipe) id: string): Promise<{ data: InboundAssistantResponse }> {
    return { data: InboundAssistantResponse.from(await this.assistants.get(orgId, id)) };
  }

  @Patch(':id')
  @RequireScope('assistants:write')
  @ApiOperation({
    operationId: 'updateInboundAssistant',
    summary: 'Update name and/or systemPromptId (a prompt-library entry of the organization)',
  })
  @ApiDataResponse(InboundAssistantResponse)
  @ApiErrors('VALIDATION_ERROR', 'NOT_FOUND')
  async update(
    @OrgId() orgId: string,
    @Param('id', IdParamPipe) id: string,
    @Body() dto: UpdateInboundAssistantDto,
  ): Promise<{ data: InboundAssistantResponse }> {
    return { data: InboundAssistantResponse.from(await this.assistants.update(orgId, id, dto)) };
  }
}
