import { CreditRating, PartySubtype, PartyType } from '../../src-shared/domain/enums';
import type { ServerDb } from '../db/database';
import type { counterparties } from '../db/schema';
import { insertInBatches, seededId } from '../seed/batch';
import { chineseCities, givenNames, surnames } from '../seed/catalogue';
import { Random } from '../seed/random';
import {
  counterpartyBanks,
  counterpartyContacts,
  counterpartyMonitoringResults,
  counterpartyRegistrations,
  counterpartyRisks,
} from './schema';

// Demo details of the generated counterparties: identity numbers, addresses, credit ratings,
// bank accounts, contacts, business registration, risks and monitoring results.

type PartyRow = typeof counterparties.$inferInsert;

const banks = ['中国工商银行', '中国建设银行', '中国银行', '中国农业银行', '招商银行', '交通银行', '浦发银行', '兴业银行', '中信银行'];
const foreignBanks = ['HSBC', 'Citibank', 'Standard Chartered', 'Deutsche Bank', 'DBS Bank'];
const roads = ['人民路', '中山路', '解放路', '建设路', '科技园路', '滨江大道', '世纪大道', '长江路'];
const enterpriseTypes = ['有限责任公司(自然人投资或控股)', '股份有限公司(非上市)', '有限责任公司(法人独资)', '外商独资企业', '股份有限公司(上市)'];
export const riskDimensions = ['司法风险', '经营风险', '税务风险', '行政处罚', '股权出质', '失信被执行'];
const riskTexts: Record<string, string[]> = {
  司法风险: ['新增买卖合同纠纷立案信息', '被列为民事诉讼被告', '新增开庭公告'],
  经营风险: ['被列入经营异常名录', '注册地址变更', '法定代表人变更'],
  税务风险: ['欠税公告', '税务非正常户'],
  行政处罚: ['收到市场监管局行政处罚决定书', '环保处罚'],
  股权出质: ['新增股权出质登记', '股权冻结'],
  失信被执行: ['被列为失信被执行人', '新增限制高消费令'],
};
const ratingWeights = [
  [CreditRating.None, 30], [CreditRating.HighQuality, 15], [CreditRating.Good, 30], [CreditRating.Average, 20], [CreditRating.Blacklist, 5],
] as const;

const dayMs = 86_400_000;
const digits = (random: Random, n: number) => Array.from({ length: n }, () => random.int(0, 9)).join('');
const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** A made-up unified social credit code (18 characters) or resident ID number. */
function identityNumber(random: Random, person: boolean): string {
  if (person) return `${random.pick(['110', '310', '440', '330', '320'])}${digits(random, 3)}${random.int(1965, 2000)}${String(random.int(1, 12)).padStart(2, '0')}${String(random.int(1, 28)).padStart(2, '0')}${digits(random, 3)}${random.pick(['0', '1', 'X'])}`;
  const alphabet = '0123456789ABCDEFGHJKLMNPQRTUWXY';
  return `91${digits(random, 6)}${Array.from({ length: 10 }, () => random.pick([...alphabet])).join('')}`;
}

const personName = (random: Random) => `${random.pick(surnames)[0]}${random.pick(givenNames)[0]}`;
const phone = (random: Random) => `1${random.pick(['3', '5', '7', '8', '9'])}${digits(random, 9)}`;

/** The generated parties with their detail columns filled in (written with the core rows). */
export function withCounterpartyDetails(parties: readonly PartyRow[], seed: number): PartyRow[] {
  const random = new Random(seed ^ 0x5eed_c0de);
  return parties.map((party) => {
    const person = party.subtype === PartySubtype.NaturalPerson;
    const outer = party.type === PartyType.Outer;
    const city = random.pick(chineseCities);
    const rating = outer ? random.weighted(ratingWeights) : CreditRating.None;
    return {
      ...party,
      keyword: person ? null : party.name.replace(/^(上海|北京|深圳|杭州|广州|苏州|南京|成都|武汉|西安|天津|重庆|宁波|厦门|青岛)/, '').slice(0, 4),
      idNumber: identityNumber(random, person),
      address: `${city}市${random.pick(roads)}${random.int(1, 999)}号`,
      contactInfo: phone(random),
      email: person ? null : `contact${random.int(100, 999)}@example.com`,
      fax: person || random.chance(0.6) ? null : `0${random.int(10, 99)}-${digits(random, 8)}`,
      rating,
      ratingRemark: rating === CreditRating.Blacklist ? random.pick(['多次逾期交付', '存在重大合同违约', '涉及失信被执行']) : null,
      isConnectedTransaction: party.type === PartyType.Inner,
    };
  });
}

/** Banks, contacts, registrations, risks and monitoring of the parties (already inserted). */
export async function seedCounterpartyDetails(tx: ServerDb, parties: readonly PartyRow[], seed: number, base: number): Promise<void> {
  const random = new Random(seed ^ 0xba_4c_5eed);
  const bankRows: (typeof counterpartyBanks.$inferInsert)[] = [];
  const contactRows: (typeof counterpartyContacts.$inferInsert)[] = [];
  const registrationRows: (typeof counterpartyRegistrations.$inferInsert)[] = [];
  const riskRows: (typeof counterpartyRisks.$inferInsert)[] = [];
  const monitoringRows: (typeof counterpartyMonitoringResults.$inferInsert)[] = [];
  for (const party of parties) {
    const id = party.id;
    const person = party.subtype === PartySubtype.NaturalPerson;
    const foreign = /^[A-Za-z]/.test(party.name);
    for (let position = 0; position < (person ? 1 : random.int(1, 2)); position++) {
      const bank = foreign && random.chance(0.6) ? random.pick(foreignBanks) : `${random.pick(banks)}${random.pick(chineseCities)}分行`;
      bankRows.push({ counterpartyId: id, position, name: bank, account: `${random.int(6, 9)}${digits(random, random.int(15, 18))}`, accountName: party.name });
    }
    const contacts = person ? 0 : random.int(1, 3);
    for (let position = 0; position < contacts; position++) {
      contactRows.push({ counterpartyId: id, position, name: personName(random), phone: phone(random), email: null, title: random.pick(['商务经理', '财务', '法务', '总经理', '项目经理']) });
    }
    if (person || party.type === PartyType.Inner) continue;
    const established = base - random.int(3, 30) * 365 * dayMs;
    const cancelled = random.chance(0.02);
    registrationRows.push({
      counterpartyId: id,
      enterpriseType: random.pick(enterpriseTypes),
      registeredCapital: `${random.pick([50, 100, 200, 500, 1000, 5000, 10000])}万人民币`,
      historyName: random.chance(0.15) ? `${party.name.slice(0, -4)}（原名）` : null,
      businessScope: '技术开发、技术咨询、技术服务；货物进出口；销售电子产品、机械设备。（依法须经批准的项目，经相关部门批准后方可开展经营活动）',
      termStart: isoDay(established),
      termEnd: random.chance(0.5) ? null : isoDay(established + 30 * 365 * dayMs),
      governingBody: `${random.pick(chineseCities)}市市场监督管理局`,
      legalPerson: personName(random),
      establishmentDate: isoDay(established),
      cancellationDate: cancelled ? isoDay(base - random.int(10, 300) * dayMs) : null,
      approvalDate: isoDay(base - random.int(30, 900) * dayMs),
      registrationStatus: cancelled ? '注销' : random.pick(['存续', '在业']),
    });
    if (!random.chance(party.rating === CreditRating.Blacklist ? 0.9 : 0.12)) continue;
    for (let i = random.int(1, 6); i > 0; i--) {
      const dimensionName = random.pick(riskDimensions);
      const at = base - random.int(1, 540) * dayMs;
      const description = random.pick(riskTexts[dimensionName]!);
      riskRows.push({ id: seededId(random, at), counterpartyId: id, dimensionName, description, occurredOn: isoDay(at), createTime: new Date(at) });
      monitoringRows.push({ id: seededId(random, at), counterpartyId: id, dimensionName, info: `${dimensionName}：${description}`, updateTime: new Date(at + dayMs) });
    }
  }
  await insertInBatches(tx, counterpartyBanks, bankRows);
  await insertInBatches(tx, counterpartyContacts, contactRows);
  await insertInBatches(tx, counterpartyRegistrations, registrationRows);
  await insertInBatches(tx, counterpartyRisks, riskRows);
  await insertInBatches(tx, counterpartyMonitoringResults, monitoringRows);
}
