import type { UserRole } from '../../src-shared/domain/user';

// The vocabulary of the demo data: one organisation, its departments, the demo users and the
// building blocks of realistic names. Generation (generate.ts) combines these with a seeded PRNG.

export const organisationName = '华辰集团有限公司';

export const departmentCatalogue: readonly { name: string; parent?: string }[] = [
  { name: '总经办' },
  { name: '法务部' },
  { name: '财务部' },
  { name: '采购部' },
  { name: '销售部' },
  { name: '华东销售组', parent: '销售部' },
  { name: '华南销售组', parent: '销售部' },
  { name: '信息技术部' },
];

export interface DemoUser {
  username: string;
  password: string;
  role: UserRole;
  displayName: string;
  /** The department's name, one of `departmentCatalogue`. */
  department: string;
}

/** The accounts listed in the README; every other seeded user signs in with `otherUsersPassword`. */
export const demoUsers: readonly DemoUser[] = [
  { username: 'admin', password: 'admin123', role: 'admin', displayName: '系统管理员', department: '总经办' },
  { username: 'alice', password: 'alice123', role: 'staff', displayName: '王爱丽 Alice Wang', department: '采购部' },
  { username: 'bob', password: 'bob123', role: 'staff', displayName: '李博 Bob Li', department: '销售部' },
  { username: 'carol', password: 'carol123', role: 'staff', displayName: '陈卡罗 Carol Chen', department: '法务部' },
];

export const otherUsersPassword = 'demo123';

/** [characters, pinyin] */
export const surnames: readonly (readonly [string, string])[] = [
  ['王', 'wang'], ['李', 'li'], ['张', 'zhang'], ['刘', 'liu'], ['陈', 'chen'], ['杨', 'yang'], ['赵', 'zhao'],
  ['黄', 'huang'], ['周', 'zhou'], ['吴', 'wu'], ['徐', 'xu'], ['孙', 'sun'], ['胡', 'hu'], ['朱', 'zhu'],
  ['高', 'gao'], ['林', 'lin'], ['何', 'he'], ['郭', 'guo'], ['马', 'ma'], ['罗', 'luo'],
];

export const givenNames: readonly (readonly [string, string])[] = [
  ['伟', 'wei'], ['芳', 'fang'], ['娜', 'na'], ['敏', 'min'], ['静', 'jing'], ['磊', 'lei'], ['强', 'qiang'],
  ['洋', 'yang'], ['艳', 'yan'], ['勇', 'yong'], ['军', 'jun'], ['杰', 'jie'], ['娟', 'juan'], ['涛', 'tao'],
  ['明', 'ming'], ['超', 'chao'], ['秀英', 'xiuying'], ['霞', 'xia'], ['平', 'ping'], ['刚', 'gang'],
  ['建华', 'jianhua'], ['晓东', 'xiaodong'], ['海燕', 'haiyan'], ['志强', 'zhiqiang'], ['丽华', 'lihua'],
];

export const chineseCities = ['上海', '北京', '深圳', '杭州', '广州', '苏州', '南京', '成都', '武汉', '西安', '天津', '重庆', '宁波', '厦门', '青岛'];
export const chineseBrands = [
  '华信', '中科', '博远', '天成', '瑞达', '恒通', '金桥', '新源', '鼎盛', '汇丰达', '宏图', '盛世', '安泰', '永兴',
  '广联', '智联', '东方', '长城', '凯达', '锦程', '正元', '海纳', '远景', '启明', '众诚', '德润', '万达通', '华茂',
];
export const chineseIndustries = [
  '科技', '信息技术', '建设工程', '物流', '医药', '环保科技', '贸易', '电子', '机械设备', '咨询', '文化传媒',
  '新能源', '供应链管理', '物业管理', '软件',
];
export const chineseCompanySuffixes = ['有限公司', '股份有限公司', '有限责任公司'];

export const englishBrands = [
  'Acme', 'Northwind', 'Blue Harbor', 'Summit', 'Pioneer', 'Evergreen', 'Redwood', 'Silverline', 'Brightpath',
  'Crescent', 'Ironbridge', 'Oakridge', 'Harborview', 'Keystone', 'Lighthouse', 'Meridian', 'Sterling', 'Vanguard',
  'Aurora', 'Bayside', 'Cobalt', 'Driftwood', 'Falcon', 'Granite', 'Highland', 'Juniper', 'Kingsley', 'Lakeshore',
  'Maplewood', 'Northstar',
];
export const englishIndustries = [
  'Logistics', 'Technologies', 'Consulting', 'Manufacturing', 'Trading', 'Software', 'Engineering', 'Pharma',
  'Energy', 'Analytics',
];
export const englishCompanySuffixes = ['Ltd.', 'Inc.', 'GmbH', 'LLC', 'Pte. Ltd.', 'Co., Ltd.'];

/** Our own group companies, the inner counterparties (party type 1). */
export const innerCounterparties = [
  '华辰集团上海分公司', '华辰集团深圳分公司', '华辰科技有限公司', '华辰供应链管理有限公司', '华辰国际贸易(香港)有限公司',
];

export interface ContractType {
  name: string;
  english: string;
  /** [Chinese, English] subjects that complete a contract name. */
  subjects: readonly (readonly [string, string])[];
  /** Amount range in major units; null amounts are contracts without a value (e.g. an NDA). */
  amount: { min: number; max: number; missing: number };
  /** How common the type is, relative to the others. */
  weight: number;
}

export const contractTypes: readonly ContractType[] = [
  {
    name: '采购合同', english: 'Purchase agreement',
    subjects: [['办公设备采购', 'office equipment'], ['服务器及存储设备', 'server and storage hardware'], ['原材料采购', 'raw materials'], ['劳保用品', 'safety supplies'], ['办公家具', 'office furniture']],
    amount: { min: 5_000, max: 3_000_000, missing: 0.02 },
    weight: 24,
  },
  {
    name: '销售合同', english: 'Sales contract',
    subjects: [['智能终端销售', 'smart terminals'], ['年度产品供货', 'annual product supply'], ['备品备件销售', 'spare parts'], ['软件许可销售', 'software licences']],
    amount: { min: 10_000, max: 8_000_000, missing: 0.02 },
    weight: 20,
  },
  {
    name: '服务合同', english: 'Service agreement',
    subjects: [['IT运维服务', 'IT operations support'], ['物业保洁服务', 'facility cleaning'], ['安保服务', 'security services'], ['年度审计服务', 'annual audit']],
    amount: { min: 20_000, max: 1_500_000, missing: 0.03 },
    weight: 18,
  },
  {
    name: '技术开发合同', english: 'Technology development contract',
    subjects: [['合同管理系统开发', 'contract management system'], ['移动应用开发', 'mobile app development'], ['数据平台建设', 'data platform']],
    amount: { min: 100_000, max: 5_000_000, missing: 0.02 },
    weight: 8,
  },
  {
    name: '租赁合同', english: 'Lease agreement',
    subjects: [['办公场所租赁', 'office premises'], ['仓库租赁', 'warehouse'], ['车辆租赁', 'vehicle fleet']],
    amount: { min: 30_000, max: 2_000_000, missing: 0.02 },
    weight: 8,
  },
  {
    name: '保密协议', english: 'Non-disclosure agreement',
    subjects: [['项目合作保密', 'project cooperation'], ['技术交流保密', 'technical exchange']],
    amount: { min: 0, max: 0, missing: 1 },
    weight: 8,
  },
  {
    name: '框架协议', english: 'Framework agreement',
    subjects: [['年度战略合作', 'annual strategic cooperation'], ['集中采购框架', 'central procurement']],
    amount: { min: 500_000, max: 20_000_000, missing: 0.5 },
    weight: 4,
  },
  {
    name: '咨询服务合同', english: 'Consulting agreement',
    subjects: [['法律顾问服务', 'legal counsel'], ['管理咨询', 'management consulting'], ['税务咨询', 'tax advisory']],
    amount: { min: 10_000, max: 800_000, missing: 0.03 },
    weight: 10,
  },
];
