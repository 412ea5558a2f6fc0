import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post } from '@nestjs/common';
import { ApiNoContentResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { RequireScope } from '../../common/auth/access.decorators';
import { OrgId } from '../../common/auth/auth-context';
import { IdParamPipe } from '../../common/ids/id-param.pipe';
import { ApiDataResponse } from '../../common/openapi/api-data-response.decorator';
import { ApiErrors } from '../../common/openapi/api-errors.decorator';
import { CreateOutboundAssistantDto } from './dto/create-outbound-assistant.dto';
import { UpdateOutboundAssistantDto } from './dto/update-outbound-assistant.dto';
import { OutboundAssistantResponse, OutboundAssistantSummaryResponse } from './outbound-assistant.response';
import { MAX_OUTBOUND_ASSISTANTS, OutboundAssistantsService } from './outbound-assistants.service';

@ApiTags('Assistants')
@Controller('api/v1/assistants/outbound')
export class OutboundAssistantsController {
  constructor(private readonly assistants: OutboundAssistantsService) {}

  @Get()
  @RequireScope('assistants:read')
  @ApiOperation({
    operationId: 'listOutboundAssistants',
    summary: 'Outbound assistants, summary representation (not paginated)',
    description: `Every outbound assistant of the organization, newest first: at most ${MAX_OUTBOUND_ASSISTANTS} (the cap on creation).`,
  })
  @ApiDataResponse(OutboundAssistantSummaryResponse, { isArray: true })
  async list(@OrgId() orgId: string): Promise<{ data: OutboundAssistantSummaryResponse[] }> {
    return { data: (await this.assistants.list(orgId)).map(OutboundAssistantSummaryResponse.from) };
  }

  @Get(':id')
  @RequireScope('assistants:read')
  @ApiOperation({ operationId: 'getOutboundAssistant', summary: 'Get an outbound assistant (full object)' })
  @ApiDataResponse(OutboundAssistantResponse)
  @ApiErrors('VALIDATION_ERROR', 'NOT_FOUND')
  async get(
    @OrgId() orgId: string,
    @Param('id', IdParamPipe) id: string,
  ): Promise<{ data: OutboundAssistantResponse }> {
    return { data: OutboundAssistantResponse.from(await this.assistants.get(orgId, id)) };
  }

  @Post()
  @HttpCode(201)
  @RequireScope('assistants:write')
  @ApiOperation({
    operationId: 'createOutboundAssistant',
    summary: 'Create an outbound assistant',
    description: `An organization has at most ${MAX_OUTBOUND_ASSISTANTS} outbound assistants; one more is 422 MAX_ASSISTANTS.`,
  })
  @ApiDataResponse(OutboundAssistantResponse, { status: 201 })
  @ApiErrors('VALIDATION_ERROR', 'MAX_ASSISTANTS')
  async create(
    @OrgId() orgId: string,
    @Body() dto: CreateOutboundAssistantDto,
  ): Promise<{ data: OutboundAssistantResponse }> {
    return { data: OutboundAssistantResponse.from(await this.assistants.create(orgId, dto)) };
  }

  @Patch(':id')
  @RequireScope('assistants:write')
  @ApiOperation({
    operationId: 'updateOutboundAssistant',
    summary: 'Update an outbound assistant; omitted fields stay, voice/model/transcriber are replaced whole',
  })
  @ApiDataResponse(OutboundAssistantResponse)
  @ApiErrors('VALIDATION_ERROR', 'NOT_FOUND')
  async update(
    @OrgId() orgId: string,
    @Param('id', IdParamPipe) id: string,
    @Body() dto: UpdateOutboundAssistantDto,
  ): Promise<{ data: OutboundAssistantResponse }> {
    return { data: OutboundAssistantResponse.from(await this.assistants.update(orgId, id, dto)) };
  }

  @Delete(':id')
  @HttpCode(204)
  @ApiNoContentResponse({ description: 'Deleted' })
  @RequireScope('assistants:write')
  @ApiOperation({
    operationId: 'deleteOutboundAssistant',
    summary: 'Delete an outbound assistant; 409 while queued calls, recurring schedules or follow-up campaigns use it',
  })
  @ApiErrors('VALIDATION_ERROR', 'NOT_FOUND', 'CONFLICT')
  async delete(@OrgId() orgId: string, @Param('id', IdParamPipe) id: string): Promise<void> {
    await this.assistants.delete(orgId, id);
  }
}
