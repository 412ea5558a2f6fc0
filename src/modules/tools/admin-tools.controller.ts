import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post } from '@nestjs/common';
import { ApiNoContentResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { AdminOnly } from '../../common/auth/access.decorators';
import { IdParamPipe } from '../../common/ids/id-param.pipe';
import { ApiDataResponse } from '../../common/openapi/api-data-response.decorator';
import { ApiAdminErrors } from '../../common/openapi/api-errors.decorator';
import { ExistingOrganizationPipe } from '../organizations/existing-organization.pipe';
import { CreateToolDto } from './dto/create-tool.dto';
import { UpdateToolDto } from './dto/update-tool.dto';
import { CreatedToolResponse, ToolResponse } from './tool.response';
import { TOOL_LIMITS } from './tool-limits';
import { ToolsService } from './tools.service';

/** Tools (docs/tools.md, "Tools"): kept in the dashboard only, attached to cases, carried by their calls. */
@ApiTags('Tools')
@AdminOnly()
@Controller('admin/v1')
export class AdminToolsController {
  constructor(private readonly tools: ToolsService) {}

  @Post('organizations/:orgId/tools')
  @HttpCode(201)
  @ApiOperation({
    operationId: 'adminCreateTool',
    summary: 'Create a tool',
    description:
      'Each type takes its own fields (the others are refused, 400 naming them): `function` {name, description, ' +
      'parameters, url, timeoutSeconds, messages}, `transfer` {name, destinations}, `end-call` {name}, `platform` ' +
      `{providerToolId}. A function tool's \`secret\` is shown only in this answer. 409 CONFLICT when the ` +
      `organization already has a tool of that name; 422 MAX_TOOLS at the cap of ${TOOL_LIMITS.perOrganization}; ` +
      "422 DESTINATION_NOT_ALLOWED naming a transfer destination the organization's destination rules refuse " +
      '(docs/contracts/destinations.md).',
  })
  @ApiDataResponse(CreatedToolResponse, { status: 201 })
  @ApiAdminErrors('CONFLICT', 'MAX_TOOLS', 'DESTINATION_NOT_ALLOWED')
  async create(
    @Param('orgId', ExistingOrganizationPipe) orgId: string,
    @Body() dto: CreateToolDto,
  ): Promise<{ data: CreatedToolResponse }> {
    const { tool, secret } = await this.tools.create(orgId, dto);
    return { data: { ...ToolResponse.from(tool), secret } };
  }

  @Get('organizations/:orgId/tools')
  @ApiOperation({
    operationId: 'adminListTools',
    summary: "The organization's tools, newest first",
    description: `Not paginated: an organization has at most ${TOOL_LIMITS.perOrganization} tools.`,
  })
  @ApiDataResponse(ToolResponse, { isArray: true })
  @ApiAdminErrors()
  async list(@Param('orgId', ExistingOrganizationPipe) orgId: string): Promise<{ data: ToolResponse[] }> {
    return { data: (await this.tools.list(orgId)).map(ToolResponse.from) };
  }

  @Get('tools/:id')
  @ApiOperation({ operationId: 'adminGetTool', summary: 'A tool' })
  @ApiDataResponse(ToolResponse)
  @ApiAdminErrors()
  async get(@Param('id', IdParamPipe) id: string): Promise<{ data: ToolResponse }> {
    return { data: ToolResponse.from(await this.tools.get(id)) };
  }

  @Patch('tools/:id')
  @ApiOperation({
    operationId: 'adminUpdateTool',
    summary: 'Change a tool',
    description:
      "The fields given replace the stored ones, and the tool is checked against its type's rules again; " +
      '`type` cannot change. Calls already made keep the tools they were created with, except that a transfer ' +
      "destination the organization's destination rules refuse when the call is placed is dropped from it; a " +
      'refused destination is 422 DESTINATION_NOT_ALLOWED here.',
  })
  @ApiDataResponse(ToolResponse)
  @ApiAdminErrors('CONFLICT', 'DESTINATION_NOT_ALLOWED')
  async update(@Param('id', IdParamPipe) id: string, @Body() dto: UpdateToolDto): Promise<{ data: ToolResponse }> {
    return { data: ToolResponse.from(await this.tools.update(id, dto)) };
  }

  @Delete('tools/:id')
  @HttpCode(204)
  @ApiNoContentResponse({ description: 'Deleted' })
  @ApiOperation({
    operationId: 'adminDeleteTool',
    summary: 'Delete a tool',
    description: '409 CONFLICT while any case has it in `toolIds` (detach it first).',
  })
  @ApiAdminErrors('CONFLICT')
  async delete(@Param('id', IdParamPipe) id: string): Promise<void> {
    await this.tools.delete(id);
  }
}
