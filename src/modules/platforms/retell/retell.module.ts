import { Module } from '@nestjs/common';
import { RetellClient } from './retell-client';

/** One Retell client for everything that talks to the Retell account. */
@Module({
  providers: [RetellClient],
  exports: [RetellClient],
})
export class RetellModule {}
