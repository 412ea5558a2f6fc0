import { Injectable } from '@nestjs/common';

/** A voice platform that keeps numbers of its own (Vapi), and can point one at this service. */
export interface NumberDirectory {
  /**
   * Finds the number on the platform, points its server URL at this service and returns the platform's id for
   * it; null when the platform does not have the number.
   */
  importNumber(number: string): Promise<string | null>;
}

/**
 * Where the voice platform's number directory is registered (by the calls module, which owns the platform's
 * client), so that phone numbers, which calls depend on, need not import calls. Empty on the simulator.
 */
@Injectable()
export class VoicePlatformNumbers {
  private directory: NumberDirectory | null = null;

  register(directory: NumberDirectory): void {
    this.directory = directory;
  }

  /** The platform's id for an imported number; undefined when no platform keeps numbers, null when it lacks this one. */
  async importNumber(number: string): Promise<string | null | undefined> {
    return this.directory ? this.directory.importNumber(number) : undefined;
  }
}
