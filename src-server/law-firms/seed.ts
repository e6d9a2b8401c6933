import type { ServerDb } from '../db/database';
import { insertInBatches, seededId } from '../seed/batch';
import { chineseCities, givenNames, surnames } from '../seed/catalogue';
import { Random } from '../seed/random';
import { lawFirms, lawyers } from './schema';

// Demo law firms (made-up names) with two to eight lawyers each.

const firmWords = ['金诚', '中伦达', '君合信', '方正', '天元通', '汉坤明', '德恒远', '国浩然', '大成信', '竞天', '海问', '通商达'];

export async function seedLawFirms(tx: ServerDb, organisationId: string, seed: number, base: number): Promise<void> {
  const random = new Random(seed ^ 0x1a3f_0001);
  const names = new Set<string>();
  while (names.size < 30) names.add(`${random.pick(firmWords)}（${random.pick(chineseCities)}）律师事务所`);
  const firmRows = [...names].map((name) => ({ id: seededId(random, base - random.int(100, 900) * 86_400_000), organisationId, name }));
  const lawyerRows = firmRows.flatMap((firm) =>
    Array.from({ length: random.int(2, 8) }, () => ({
      id: seededId(random, base),
      lawFirmId: firm.id,
      name: `${random.pick(surnames)[0]}${random.pick(givenNames)[0]}`,
    })),
  );
  await insertInBatches(tx, lawFirms, firmRows);
  await insertInBatches(tx, lawyers, lawyerRows);
}
