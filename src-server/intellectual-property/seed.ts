import type { IpRecordKind, IpStatus, IpType } from '../../src-shared/domain/intellectual-property';
import type { ServerDb } from '../db/database';
import { insertInBatches, seededId } from '../seed/batch';
import { innerCounterparties } from '../seed/catalogue';
import { Random } from '../seed/random';
import { intellectualProperties, ipOrganizations, ipRecords, ipTransfers } from './schema';

// Demo IP register: the group's companies and a few outside holders, 400 rights with their
// fee and licence records, and a transfer history for some of them.

const outsideHolders = ['博远知识产权运营有限公司', '启明专利代理事务所（委托持有）', '海纳科技（原股东）'];
const subjects = ['合同条款智能比对', '电子签章验证', '档案数字化', '供应链协同', '履约提醒调度', '票据识别', '风险评分模型', '数据脱敏'];
const typeWeights = [['patent', 25], ['utility_model', 15], ['design', 5], ['trademark', 25], ['copyright', 5], ['software_copyright', 20], ['domain_name', 3], ['trade_secret', 2]] as const;
const recordKinds: Record<IpType, IpRecordKind[]> = {
  patent: ['annual_fee', 'examination', 'license'], utility_model: ['annual_fee', 'license'], design: ['annual_fee'],
  trademark: ['renewal', 'license', 'litigation'], copyright: ['license', 'other'], software_copyright: ['license', 'other'],
  domain_name: ['renewal'], trade_secret: ['other'],
};
const termYears: Record<IpType, number> = { patent: 20, utility_model: 10, design: 15, trademark: 10, copyright: 50, software_copyright: 50, domain_name: 1, trade_secret: 0 };

const dayMs = 86_400_000;
const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

function registrationNumber(random: Random, type: IpType, year: number, n: number): string {
  const serial = String(n).padStart(7, '0');
  switch (type) {
    case 'patent': return `ZL${year}1${serial}.${random.int(0, 9)}`;
    case 'utility_model': return `ZL${year}2${serial}.${random.int(0, 9)}`;
    case 'design': return `ZL${year}3${serial}.${random.int(0, 9)}`;
    case 'trademark': return `第${random.int(10, 79)}${serial.slice(1)}号`;
    case 'copyright': return `国作登字-${year}-A-${serial}`;
    case 'software_copyright': return `${year}SR${serial}`;
    case 'domain_name': return `huachen-${n}.example`;
    case 'trade_secret': return `TS-${year}-${serial}`;
  }
}

export async function seedIntellectualProperty(tx: ServerDb, input: { organisationId: string; creators: readonly string[] }, seed: number, base: number): Promise<void> {
  const random = new Random(seed ^ 0x1b_0bad);
  const organizations = [...innerCounterparties, ...outsideHolders].map((name) => {
    const at = base - random.int(700, 900) * dayMs;
    return { id: seededId(random, at), organisationId: input.organisationId, name, remark: '', createdBy: random.pick(input.creators), createTime: new Date(at), updateTime: new Date(at) };
  });
  const group = organizations.slice(0, innerCounterparties.length);
  const properties: (typeof intellectualProperties.$inferInsert)[] = [];
  const records: (typeof ipRecords.$inferInsert)[] = [];
  const transfers: (typeof ipTransfers.$inferInsert)[] = [];
  for (let n = 1; n <= 400; n++) {
    const type = random.weighted(typeWeights);
    const applied = base - random.int(30, 3000) * dayMs;
    const year = new Date(applied).getUTCFullYear();
    const status: IpStatus = random.weighted([['registered', 70], ['filed', 18], ['expired', 6], ['invalidated', 3], ['abandoned', 3]] as const);
    const registered = status === 'filed' || status === 'abandoned' ? null : applied + random.int(90, 700) * dayMs;
    const expires = registered !== null && termYears[type] > 0 ? applied + termYears[type] * 365 * dayMs : null;
    const id = seededId(random, applied);
    const owner = random.chance(0.9) ? random.pick(group) : random.pick(organizations);
    const subject = random.pick(subjects);
    properties.push({
      id, organisationId: input.organisationId, type, status, ownerOrganizationId: owner.id,
      name: type === 'trademark' ? `华辰${subject.slice(0, 2)}` : `${subject}${type === 'software_copyright' ? '系统V' + random.int(1, 5) + '.0' : '方法'}`,
      registrationNumber: registrationNumber(random, type, year, n), applicationDate: isoDay(applied),
      registrationDate: registered !== null ? isoDay(Math.min(registered, base)) : null,
      // An expired right lapsed somewhere between its grant and today.
      expirationDate: status === 'expired' ? isoDay(applied + Math.floor((base - applied) * (0.5 + random.next() / 2))) : expires !== null ? isoDay(expires) : null,
      remark: '', createdBy: random.pick(input.creators), createTime: new Date(applied), updateTime: new Date(Math.min(base, applied + random.int(1, 400) * dayMs)),
    });
    for (let r = random.int(0, 3); r > 0; r--) {
      const at = applied + random.int(30, Math.max(31, Math.floor((base - applied) / dayMs))) * dayMs;
      const kind = random.pick(recordKinds[type]);
      records.push({ id: seededId(random, at), intellectualPropertyId: id, kind, recordDate: isoDay(Math.min(at, base)), title: `${kind === 'annual_fee' ? '缴纳年费' : kind === 'license' ? '许可备案' : kind === 'renewal' ? '续展' : '记录'}（${isoDay(Math.min(at, base)).slice(0, 4)}）`, content: '', createdBy: random.pick(input.creators), createTime: new Date(Math.min(at, base)), updateTime: new Date(Math.min(at, base)) });
    }
    const previous = random.pick(organizations);
    if (random.chance(0.05) && previous.id !== owner.id) {
      const at = applied + random.int(10, Math.max(11, Math.floor((base - applied) / dayMs))) * dayMs;
      transfers.push({ id: seededId(random, at), intellectualPropertyId: id, fromOrganizationId: previous.id, toOrganizationId: owner.id, transferDate: isoDay(Math.min(at, base)), reason: '集团内部资产划转', createdBy: random.pick(input.creators), createTime: new Date(Math.min(at, base)) });
    }
  }
  await insertInBatches(tx, ipOrganizations, organizations);
  await insertInBatches(tx, intellectualProperties, properties);
  await insertInBatches(tx, ipRecords, records);
  await insertInBatches(tx, ipTransfers, transfers);
}
