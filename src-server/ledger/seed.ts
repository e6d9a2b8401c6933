import { v7 as uuidv7 } from 'uuid';
import { nameFieldId } from '../../src-shared/domain/ledger';
import type { ServerDb } from '../db/database';
import { seedBaseDate } from '../seed/generate';
import { Random } from '../seed/random';
import { caseTypes, ledgerScenes, workflows } from './schema';

// Demo data of the ledger: a case-type tree (one disabled branch), the approval workflows the
// workflow filter offers, and one custom scene per demo user (system scenes come on first read).
// Deterministic: ids come from the seed's PRNG and times from the seed's base date.

const caseTypeTree: readonly (readonly [string, readonly string[], boolean?])[] = [
  ['民事案件 Civil', ['合同纠纷 Contract dispute', '侵权纠纷 Tort', '劳动争议 Labour dispute']],
  ['商事仲裁 Commercial arbitration', ['国内仲裁 Domestic', '涉外仲裁 Foreign-related']],
  ['行政案件 Administrative', ['行政复议 Reconsideration', '行政诉讼 Litigation']],
  ['知识产权 Intellectual property', ['商标 Trademark', '专利 Patent'], true],
];

const workflowNames = [
  '标准合同审批 Standard approval', '重大合同审批 Major contract approval', '采购合同审批 Purchase approval',
  '销售合同审批 Sales approval', '框架协议审批 Framework agreement approval', '法务快速审批 Legal fast track',
];

export async function seedLedger(tx: ServerDb, options: { seed: number; organisationId: string; userIds: readonly string[] }): Promise<void> {
  const random = new Random(options.seed ^ 0x1ed6e7);
  const base = seedBaseDate.getTime() - 400 * 24 * 60 * 60 * 1000;
  const newId = (offsetMs: number) => uuidv7({ msecs: base + offsetMs, random: random.bytes(16) });
  const at = (offsetMs: number) => new Date(base + offsetMs);

  const nodes: (typeof caseTypes.$inferInsert)[] = [];
  caseTypeTree.forEach(([name, children, disabled], i) => {
    const parentId = newId(i * 1000);
    nodes.push({ id: parentId, organisationId: options.organisationId, name, state: disabled ? 2 : 1, sortOrder: i, createTime: at(i * 1000), updateTime: at(i * 1000) });
    children.forEach((child, j) => {
      const offset = i * 1000 + j + 1;
      nodes.push({ id: newId(offset), organisationId: options.organisationId, parentId, name: child, state: disabled ? 2 : 1, sortOrder: j, createTime: at(offset), updateTime: at(offset) });
    });
  });
  await tx.insert(caseTypes).values(nodes);
  await tx.insert(workflows).values(workflowNames.map((name, i) => ({ id: newId(10_000 + i), organisationId: options.organisationId, name, createTime: at(10_000 + i) })));
  if (options.userIds.length > 0) {
    await tx.insert(ledgerScenes).values(
      options.userIds.map((userId, i) => ({
        id: newId(20_000 + i), userId, name: 'my receivables', sortOrder: 10,
        titleIds: [nameFieldId, 'contractName', 'receivableAmount', 'expirationTime', 'taskState'],
        filterIds: ['taskType', 'expirationTime', 'receivableAmount'],
        filters: [{ id: 'taskType', type: 'select', condition: { in: ['receivable', 'collection'] } }],
        createTime: at(20_000 + i), updateTime: at(20_000 + i),
      })),
    );
  }
}
