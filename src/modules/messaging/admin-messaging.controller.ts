import { Body, Controller, HttpCode, Param, Post } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { AdminOnly } from '../../common/auth/access.decorators';
import { IdParamPipe } from '../../common/ids/id-param.pipe';
import { uuidv7 } from '../../common/ids/uuid-v7';
import { ExistingOrganizationPipe } from '../organizations/existing-organization.pipe';
import { CreateMessagingAccountDto } from './dto/create-messaging-account.dto';
import { CreateMessagingTemplateDto } from './dto/create-messaging-template.dto';
import { SimulateInboundMessageDto } from './dto/simulate-inbound-message.dto';
import { MessagingAccountResponse } from './messaging-account.response';
import { MessagingAccountsService } from './messaging-accounts.service';
import { RecordInboundMessageCommand } from './record-inbound-message.command';

/** CONTRACTS §6: messaging accounts, templates and simulated inbound messages, for the dashboard. */
@ApiExcludeController()
@AdminOnly()
@Controller('admin/v1')
export class AdminMessagingController {
  constructor(
    private readonly accounts: MessagingAccountsService,
    private readonly recordInbound: RecordInboundMessageCommand,
  ) {}

  @Post('organizations/:orgId/messaging-accounts')
  @HttpCode(201)
  async createAccount(@Param('orgId', ExistingOrganizationPipe) orgId: string, @Body() dto: CreateMessagingAccountDto) {
    return { data: MessagingAccountResponse.from(await this.accounts.create(orgId, dto)) };
  }

  @Post('messaging-accounts/:id/templates')
  @HttpCode(201)
  async createTemplate(@Param('id', IdParamPipe) id: string, @Body() dto: CreateMessagingTemplateDto) {
    const t = await this.accounts.createTemplate(id, dto);
    return {
      data: { id: t.id, accountId: t.accountId, name: t.name, language: t.language, status: t.status, body: t.body },
    };
  }

  @Post('simulator/inbound-messages')
  @HttpCode(201)
  async simulateInbound(@Body() dto: SimulateInboundMessageDto) {
    const account = await this.accounts.mustExist(dto.accountId);
    const result = await this.recordInbound.execute({
      account,
      from: dto.from,
      name: dto.name,
      providerMessageId: dto.messageId ?? `sim.in.${uuidv7()}`,
      messageType: 'text',
      text: dto.text,
      timestamp: dto.timestamp ? new Date(dto.timestamp) : new Date(),
    });
    return { data: { id: result.messageId, ...result } };
  }
}
