import { ApiProperty } from '@nestjs/swagger';

/**
 * The `livemode` field of every public object that belongs to a world (README: "Test and live"), documented
 * once: true for live data, false for test data, the world of the key that made it.
 */
export const ApiLivemode = () =>
  ApiProperty({
    example: true,
    description:
      'Extension: the world the object belongs to; `true` for live data, `false` for test data (made with a ' +
      '`test` key or a test messaging account). A key reads and changes only objects of its own world.',
  });
