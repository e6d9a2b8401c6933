import { v7 as uuidv7 } from 'uuid';
import type { Clause, FieldConfig } from '../../src-shared/domain/contract-forms';
import { formatNumber } from '../../src-shared/rules/numbering';
import { withDocumentBookmarks } from '../contract-document/seed';
import type { ServerDb } from '../db/database';
import { templates } from '../db/schema';
import type { SeededNumbering } from '../numbering/seed';
import { numberCounters } from '../numbering/schema';
import { contractTypes as contractTypeCatalogue, type ContractType } from '../seed/catalogue';
import type { DemoData } from '../seed/generate';
import { Random } from '../seed/random';
import { archiveOfflineSettings, fieldDefinitions, fieldOptions, templateClauses } from './schema';

// Demo form data: field definitions with options (one long list that pages), offline archive
// places, and an approved standard template per contract type with field configs and clauses,
// numbered by the template rule. The demo contracts are drafted from these (seed/form-values.ts).

const text = (t: string) => ({ type: 'text' as const, text: t });

const paymentClause: Clause = {
  labelID: 'payment', name: '付款条款', isNullable: true, bookmarkName: 'bm_payment',
  statementList: [
    {
      id: 1, name: '一次性付款',
      content: [[text('甲方应于合同签订后'), { type: 'field', fieldId: 'payDays' }, text('日内一次性支付全部合同价款。')]],
      fieldList: [{ id: 'payDays', name: '付款天数', type: 'number', required: true }],
      labelItemList: [{ id: 'pay-once', name: '一次性' }],
    },
    {
      id: 2, name: '分期付款',
      content: [[text('合同价款分'), { type: 'field', fieldId: 'instalments' }, text('期支付，每期于验收后支付。')]],
      fieldList: [{ id: 'instalments', name: '分期数', type: 'number', required: true }],
      labelItemList: [{ id: 'pay-instalments', name: '分期' }],
    },
  ],
};

const disputeClause: Clause = {
  labelID: 'dispute', name: '争议解决', isNullable: false, bookmarkName: 'bm_dispute',
  statementList: [
    { id: 1, name: '诉讼', content: [[text('因本合同引起的争议，由甲方所在地人民法院管辖。')]], fieldList: [], labelItemList: [] },
  ],
};

const paymentMethodNames = ['银行转账', '承兑汇票', '信用证', '现金'];
/** The options of the templates' payment-method field, those of the field definition 付款方式. */
const paymentMethods = paymentMethodNames.map((name, i) => ({ id: String(i + 1), name }));

/**
 * A contract type's standard template: the fields every contract has, the money fields where the
 * type has a value, the type's own fields, and the clauses as fields (a clause field's id is its
 * clause's labelID). Amounts, payment details, periods and remarks may change in an alteration.
 */
function templateFields(type: ContractType, extras: readonly FieldConfig[], clauses: readonly Clause[]): FieldConfig[] {
  const priced = type.amount.missing < 1;
  return [
    { id: 'contractName', name: '合同名称', type: 'text', required: true, maxlength: 200 },
    { id: 'contractNumber', name: '合同编号', type: 'contractNumber' },
    { id: 'contractType', name: '合同类型', type: 'contractType', required: true },
    { id: 'counterparty', name: '相对方', type: 'inputSelectV2', required: true, partyType: 2, counterpartMultiple: 1 },
    ...(priced
      ? ([
          { id: 'amount', name: '合同金额', type: 'money', fieldConfig: { money: { isWordAmount: true, isWithUnit: true } }, alterEditStatus: 2 },
          { id: 'paymentMethod', name: '付款方式', type: 'select', options: paymentMethods, alterEditStatus: 2 },
          { id: 'bankAccount', name: '收款账号', type: 'bankAccount', alterEditStatus: 2 },
        ] satisfies FieldConfig[])
      : []),
    { id: 'signDate', name: '签订日期', type: 'date', fieldConfig: { date: { dateFormat: 'yyyy年MM月dd日' } } },
    { id: 'period', name: '合同期限', type: 'daterange', alterEditStatus: 2 },
    { id: 'responsiblePerson', name: '负责人', type: 'people' },
    { id: 'department', name: '所属部门', type: 'department' },
    { id: 'subject', name: '合同标的', type: 'textarea', maxlength: 500 },
    ...extras,
    // The form asks for a statement of every clause; a draft saved without one is still stored.
    ...clauses.map((clause): FieldConfig => ({ id: clause.labelID, name: clause.name, type: 'clause' })),
    { id: 'relatedContracts', name: '关联合同', type: 'relatedContracts', alterEditStatus: 2 },
    { id: 'attachment', name: '合同附件', type: 'upload' },
    { id: 'remark', name: '备注', type: 'textarea', maxlength: 1000, alterEditStatus: 2 },
  ];
}

const deliveryPlace: FieldConfig = { id: 'deliveryPlace', name: '交货地点', type: 'text', maxlength: 200, alterEditStatus: 2 };

/** The type's own fields and clauses, by the type's name in the seed catalogue. */
const typeDetails: Record<string, { extras: FieldConfig[]; clauses: Clause[] }> = {
  采购合同: { extras: [deliveryPlace], clauses: [paymentClause, disputeClause] },
  销售合同: { extras: [deliveryPlace], clauses: [paymentClause, disputeClause] },
  服务合同: { extras: [{ id: 'serviceLocation', name: '服务地点', type: 'text', maxlength: 200, alterEditStatus: 2 }], clauses: [paymentClause, disputeClause] },
  技术开发合同: { extras: [{ id: 'acceptanceDate', name: '验收日期', type: 'date', alterEditStatus: 2 }], clauses: [paymentClause, disputeClause] },
  租赁合同: { extras: [{ id: 'leasedPremises', name: '租赁标的地址', type: 'text', maxlength: 200 }], clauses: [paymentClause, disputeClause] },
  保密协议: { extras: [{ id: 'confidentialityYears', name: '保密期限（年）', type: 'number', required: true }], clauses: [disputeClause] },
  框架协议: { extras: [], clauses: [disputeClause] },
  咨询服务合同: { extras: [], clauses: [paymentClause, disputeClause] },
};

/** A contract type's standard template's fields (with their document bookmarks) and clauses. */
export function standardTemplateForm(type: ContractType): Pick<SeededTemplate, 'fields' | 'clauses'> {
  const details = typeDetails[type.name] ?? { extras: [], clauses: [disputeClause] };
  return { fields: withDocumentBookmarks(type.name, templateFields(type, details.extras, details.clauses)), clauses: details.clauses };
}

/** A seeded template, as the contracts drafted from it need it. */
export interface SeededTemplate {
  id: string;
  name: string;
  contractTypeId: string;
  /** The contract type's name in the seed catalogue. */
  typeName: string;
  fields: FieldConfig[];
  clauses: Clause[];
}

const fieldCatalogue: { name: string; type: string; options: readonly string[] }[] = [
  { name: '付款方式', type: 'select', options: paymentMethodNames },
  { name: '币种', type: 'select', options: ['人民币', '美元', '欧元', '港币', '日元'] },
  { name: '签约地点', type: 'select', options: ['上海', '北京', '深圳', '杭州', '广州', '苏州', '南京', '成都'] },
  // A long list, so dynamic_select has pages to append.
  { name: '成本中心', type: 'select', options: Array.from({ length: 120 }, (_, i) => `CC-${String(i + 1).padStart(4, '0')}`) },
];

/** Field definitions, archive places and one approved standard template per contract type. */
export async function seedContractForms(tx: ServerDb, data: DemoData, numbering: SeededNumbering, seed: number, at: Date): Promise<SeededTemplate[]> {
  const random = new Random(seed ^ 0x666f726d);
  const newId = () => uuidv7({ msecs: at.getTime(), random: random.bytes(16) });
  const organisationId = data.organisation.id!;
  const adminId = data.users.find((u) => u.role === 'admin')!.id!;

  const definitions = fieldCatalogue.map((field, sortOrder) => ({ id: newId(), organisationId, name: field.name, type: field.type, sortOrder }));
  await tx.insert(fieldDefinitions).values(definitions);
  await tx.insert(fieldOptions).values(
    fieldCatalogue.flatMap((field, i) => field.options.map((name, sortOrder) => ({ fieldId: definitions[i]!.id, id: String(sortOrder + 1), name, sortOrder }))),
  );
  await tx.insert(archiveOfflineSettings).values(['总部档案室', '上海分公司档案室', '深圳分公司档案室'].map((name, sortOrder) => ({ id: newId(), organisationId, name, sortOrder })));

  const seeded = contractTypeCatalogue.map((type, i): SeededTemplate => ({
    id: newId(), name: `${type.name}标准模板`, contractTypeId: numbering.contractTypeIds[i]!, typeName: type.name, ...standardTemplateForm(type),
  }));
  await tx.insert(templates).values(
    seeded.map((template, i) => ({
      id: template.id, organisationId, name: template.name, status: 4 as const, fields: template.fields, createdBy: adminId, createTime: at, updateTime: at,
      contractTypeId: template.contractTypeId,
      templateNumber: formatNumber({ digits: 3, isNatural: false }, { abbr: 'MB', dateFormat: null }, i + 1, at),
    })),
  );
  await tx.insert(templateClauses).values(
    seeded.flatMap((template) =>
      template.clauses.map((clause, position) => ({
        id: newId(), templateId: template.id, position, labelId: clause.labelID, name: clause.name, isNullable: clause.isNullable,
        bookmarkName: clause.bookmarkName, statementList: clause.statementList,
      })),
    ),
  );
  // The template numbers above came from the template rule: its counter continues after them.
  await tx.insert(numberCounters).values({ ruleId: numbering.templateRuleId, scopeKey: '', period: '', lastSerial: seeded.length, updateTime: at });
  return seeded;
}
