import { ApiProperty } from '@nestjs/swagger';
import { MESSAGING_ACCOUNT_STATUSES, MessagingAccount, MessagingAccountStatus } from './messaging-account.entity';
import { ApiLivemode } from '../../common/openapi/api-livemode.property';

export class MessagingAccountResponse {
  @ApiProperty({ format: 'uuid' }) id: string;
  @ApiProperty({ enum: MESSAGING_ACCOUNT_STATUSES }) status: MessagingAccountStatus;
  @ApiProperty({ type: String, nullable: true }) statusMessage: string | null;
  @ApiProperty({ type: String, nullable: true, example: '102290129340398' }) wabaId: string | null;
  @ApiProperty({ type: String, nullable: true, example: '106540352242922' }) phoneNumberId: string | null;
  @ApiProperty({ example: '+1 555-010-0100' }) displayPhoneNumber: string;
  @ApiProperty({ example: 'Acme Dental' }) verifiedName: string;
  @ApiProperty({ example: 'GREEN' }) qualityRating: string;
  @ApiProperty() messagesSent: number;
  @ApiProperty() messagesReceived: number;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) lastMessageAt: string | null;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
  @ApiLivemode() livemode: boolean;

  static from(a: MessagingAccount): MessagingAccountResponse {
    return {
      id: a.id,
      status: a.status,
      statusMessage: a.statusMessage,
      wabaId: a.wabaId,
      phoneNumberId: a.phoneNumberId,
      displayPhoneNumber: a.displayPhoneNumber,
      verifiedName: a.verifiedName,
      qualityRating: a.qualityRating,
      messagesSent: a.messagesSent,
      messagesReceived: a.messagesReceived,
      lastMessageAt: a.lastMessageAt?.toISOString() ?? null,
      createdAt: a.createdAt.toISOString(),
      livemode: a.livemode,
    };
  }
}

/** The dashboard's view of an account (admin API): also whether it has a token of its own, never the token. */
export class AdminMessagingAccountResponse extends MessagingAccountResponse {
  @ApiProperty({
    description:
      'Whether the account has its own provider access token (the token itself is never returned); false: the ' +
      'process-wide token serves it',
  })
  hasAccessToken: boolean;

  static forAdmin(a: MessagingAccount): AdminMessagingAccountResponse {
    return { ...MessagingAccountResponse.from(a), hasAccessToken: a.accessTokenSealed !== null };
  }
}
