import { StartupError, prepareInfrastructure } from '../../src/bootstrap/prepare-infrastructure';
import { parseConfig } from '../../src/infra/config/app-config';
import { TEST_SERVER_URL } from '../support/databases';

describe('start-up checks', () => {
  it('stops with one clear line naming the PostgreSQL URL (password masked) when it is unreachable', async () => {
    const config = parseConfig({ NODE_ENV: 'test', DATABASE_URL: 'postgres://app:s3cret@127.0.0.1:1/nowhere' });
    const error = await prepareInfrastructure(config).catch((e) => e);
    expect(error).toBeInstanceOf(StartupError);
    expect(error.message).toContain('Cannot reach PostgreSQL at postgres://app:***@127.0.0.1:1/nowhere');
    expect(error.message).not.toContain('s3cret');
    expect(error.message).not.toContain('\n');
  });

  it('stops with one clear line naming the Redis URL when it is unreachable', async () => {
    const config = parseConfig({ NODE_ENV: 'test', DATABASE_URL: TEST_SERVER_URL, REDIS_URL: 'redis://127.0.0.1:1' });
    const error = await prepareInfrastructure(config).catch((e) => e);
    expect(error).toBeInstanceOf(StartupError);
    expect(error.message).toContain('Cannot reach Redis at redis://127.0.0.1:1');
    expect(error.message).toContain('unset REDIS_URL');
  });
});
