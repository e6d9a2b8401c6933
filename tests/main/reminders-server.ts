import { createContractServerClient } from '../../src-main/core/contract-server/client';
import { seedDemoData, startContractServer } from '../../src-server';
import { kindSettings, settingsForAll } from './reminders-fixtures';

// Shared by the tests of reminders through sync (desktop and browser edition).

/** A contract server on seeded demo data where alice is reminded of her tasks on their due date at 09:00; signed in as her. */
export async function serverRemindingAlice(dataDir: string) {
  await seedDemoData({ contracts: 20, seed: 5, dataDir });
  const server = await startContractServer({ port: 0, dataDir });
  const client = createContractServerClient(server.url);
  const { token, user } = await client.call('login', { body: { username: 'alice', password: 'alice123' } });
  await client.call('performanceReminderSettingsSave', { token, body: settingsForAll(kindSettings({ timeNode: { reminderTypes: ['onDue'], otherTimes: [] } })) });
  return { server, client, token, user };
}
