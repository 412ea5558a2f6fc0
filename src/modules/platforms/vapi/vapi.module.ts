import { Module } from '@nestjs/common';
import { VapiClient } from './vapi-client';

/** One Vapi client for every kind that talks to the Vapi account: voice calls and the chat agent. */
@Module({
  providers: [VapiClient],
  exports: [VapiClient],
})
export class VapiModule {}
