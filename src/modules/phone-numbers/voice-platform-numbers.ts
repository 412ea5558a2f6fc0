import { Injectable } from '@nestjs/common';
import type { VoicePlatform } from '../../infra/config/platforms';

/** A number as its platform keeps it: the platform's id, and who carries its calls there. */
export interface ImportedNumber {
  providerId: string;
  telephony: string;
}

/** A voice platform that keeps numbers of its own (Vapi), and can point one at this service. */
export interface NumberDirectory {
  /**
   * Finds the number on the platform, points its server URL at this service and returns the platform's id for
   * it and its telephony; null when the platform does not have the number.
   */
  importNumber(number: string): Promise<ImportedNumber | null>;
}

/**
 * Where each voice platform's number directory is registered (by the module that owns the platform's client),
 * so that phone numbers, which calls depend on, need not import calls. The simulator keeps none.
 */
@Injectable()
export class VoicePlatformNumbers {
  private readonly directories = new Map<VoicePlatform, NumberDirectory>();

  register(platform: VoicePlatform, directory: NumberDirectory): void {
    this.directories.set(platform, directory);
  }

  /**
   * The platform's id for an imported number; undefined when the platform keeps no numbers, null when it lacks
   * this one.
   */
  async importNumber(platform: VoicePlatform, number: string): Promise<ImportedNumber | null | undefined> {
    return this.directories.get(platform)?.importNumber(number);
  }
}
