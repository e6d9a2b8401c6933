import type { FieldConfig } from '../../src-shared/domain/contract-forms';
import type { ClauseValue } from '../../src-shared/form/clause';
import { contractTerms } from '../../src-shared/rules/contract-terms';
import type { SeededTemplate } from '../contract-forms/seed';
import type { counterparties, departments } from '../db/schema';
import { chineseCities, contractTypes } from './catalogue';
import type { DemoData, GeneratedUser } from './generate';
import { Random } from './random';

// Each demo contract drafted from its type's standard template: form values for every field, as
// a user would have filled them in, made from the contract's own columns (name, number, party,
// money, dates, owner) so that the ledger's columns and the form say the same.

type ContractRow = DemoData['contracts'][number];

export interface FormValueSources {
  templates: readonly SeededTemplate[];
  parties: readonly Pick<typeof counterparties.$inferInsert, 'id' | 'name' | 'subtype' | 'keyword'>[];
  users: readonly Pick<GeneratedUser, 'id' | 'displayName'>[];
  departments: readonly Pick<typeof departments.$inferInsert, 'id' | 'name'>[];
}

const dayMs = 24 * 60 * 60 * 1000;
const beijingOffsetMs = 8 * 60 * 60 * 1000;

const places = ['甲方指定仓库', '甲方办公场所', '乙方工厂交货', '项目现场'];
const roads = ['人民路', '中山路', '解放路', '科技园路', '滨江大道', '长江路'];
const remarks = ['以双方盖章版本为准。', '含税价格，税率按国家规定执行。', '首年免费维保，次年起按年续约。', '需在合同到期前三十日书面通知是否续约。', '结算以双方对账单为准。'];
const paymentMethodWeights = [['1', 70], ['2', 15], ['3', 10], ['4', 5]] as const;

/** yyyy-MM-dd of a calendar day `days` after a yyyy-MM-dd day. */
function addDays(day: string, days: number): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + days * dayMs).toISOString().slice(0, 10);
}

/** The day `months` later, less one: a term of whole months. */
function termEnd(day: string, months: number): string {
  const date = new Date(`${day}T00:00:00Z`);
  date.setUTCMonth(date.getUTCMonth() + months);
  return addDays(date.toISOString().slice(0, 10), -1);
}

const rangeBound = (day: string) => day.replaceAll('-', '/');

function byId<T extends { id?: string | undefined }>(rows: readonly T[]): Map<string, T> {
  return new Map(rows.map((row) => [row.id!, row]));
}

/**
 * The contracts with their template (the standard template of their type), its contract type and
 * form values. Pure: the same contracts and seed give the same values.
 */
export function withFormValues(contracts: readonly ContractRow[], sources: FormValueSources, seed: number): ContractRow[] {
  const random = new Random(seed ^ 0x76616c73);
  const templates = new Map(sources.templates.map((template) => [template.typeName, template]));
  const parties = byId(sources.parties);
  const users = byId(sources.users);
  const departmentNames = byId(sources.departments);
  const token = () => Array.from(random.bytes(4), (b) => b.toString(16).padStart(2, '0')).join('');

  /** The chosen statement of a clause: one with fields gets values, a nullable one may be left out. */
  function clauseValue(template: SeededTemplate, labelID: string): ClauseValue | undefined {
    const clause = template.clauses.find((c) => c.labelID === labelID);
    if (!clause) return undefined;
    if (clause.isNullable && clause.statementList.length > 1 && random.chance(0.05)) return { statementId: -1, fieldList: [], values: {} };
    const statement = clause.statementList.length > 1 && random.chance(0.3) ? clause.statementList[1]! : clause.statementList[0]!;
    const fieldList = statement.fieldList.map((field) => ({ id: field.id, name: field.name, required: field.required ?? false, positionName: `clause_${field.id}_${token()}` }));
    const values = Object.fromEntries(fieldList.map((field) => [field.positionName, field.id === 'instalments' ? String(random.int(2, 4)) : String(random.pick([15, 30, 45, 60]))]));
    return { statementId: statement.id, fieldList, values };
  }

  return contracts.map((contract) => {
    const template = templates.get(contract.contractTypeName ?? '');
    if (!template) return contract;
    const type = contractTypes.find((t) => t.name === template.typeName)!;
    const party = contract.counterpartyId ? parties.get(contract.counterpartyId) : undefined;
    const owner = contract.responsibleUserId ? users.get(contract.responsibleUserId) : undefined;
    const department = contract.departmentId ? departmentNames.get(contract.departmentId) : undefined;
    const created = new Date((contract.createTime as Date).getTime() + beijingOffsetMs).toISOString().slice(0, 10);
    const start = contract.signDate ?? addDays(created, random.int(3, 20));
    const months = random.weighted([[12, 6], [24, 2], [36, 1], [6, 1]] as const);
    const subject = type.subjects.find(([zh, en]) => contract.name.includes(zh) || contract.name.includes(en))?.[0] ?? type.name;
    const city = random.pick(chineseCities);

    const valueOf = (field: FieldConfig): unknown => {
      switch (field.id) {
        case 'contractName': return contract.name;
        case 'contractNumber': return contract.contractNumber ?? undefined;
        case 'contractType': return template.contractTypeId;
        case 'counterparty':
          return party ? [{ id: party.id, name: party.name, subtype: party.subtype, ...(party.keyword ? { keyword: party.keyword } : {}) }] : undefined;
        case 'amount': return contract.amount != null && contract.amountUnit ? { amount: contract.amount, unit: contract.amountUnit } : undefined;
        case 'paymentMethod': return contract.amount != null ? random.weighted(paymentMethodWeights) : undefined;
        case 'bankAccount': return contract.amount != null && random.chance(0.6) ? `6222${String(random.int(100_000_000, 999_999_999))}${String(random.int(100_000, 999_999))}` : undefined;
        case 'signDate': return contract.signDate ?? undefined;
        case 'period': return [rangeBound(start), rangeBound(termEnd(start, months))];
        case 'responsiblePerson': return owner ? [{ id: owner.id, name: owner.displayName }] : undefined;
        case 'department': return department ? [{ id: department.id, name: department.name }] : undefined;
        case 'subject': return `${subject}，具体规格、数量及服务内容以附件清单为准。`;
        case 'deliveryPlace':
        case 'serviceLocation': return `${city}市${random.pick(places)}`;
        case 'leasedPremises': return `${city}市${random.pick(roads)}${random.int(1, 999)}号${random.int(1, 30)}层`;
        case 'acceptanceDate': return addDays(start, random.int(90, 270));
        case 'confidentialityYears': return String(random.pick([2, 3, 5]));
        case 'remark': return random.chance(0.3) ? random.pick(remarks) : undefined;
        default: return field.type === 'clause' ? clauseValue(template, field.id) : undefined;
      }
    };
    const formValues: Record<string, unknown> = {};
    for (const field of template.fields) {
      const value = valueOf(field);
      if (value !== undefined) formValues[field.id] = value;
    }
    // The columns the ledger shows are the form's terms, by the rule every write follows.
    const terms = contractTerms(template.fields, formValues);
    return {
      ...contract,
      templateId: template.id,
      templateName: template.name,
      contractTypeId: template.contractTypeId,
      formValues,
      ...(terms.counterparty !== undefined && { counterpartyId: terms.counterparty?.id ?? null }),
      ...(terms.amount !== undefined && { amount: terms.amount?.amount ?? null, amountUnit: terms.amount?.unit ?? null }),
      ...(terms.signDate !== undefined && { signDate: terms.signDate }),
    };
  });
}
