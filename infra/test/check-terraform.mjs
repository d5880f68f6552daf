// Static checks of the Terraform topology, on the parsed HCL (@cdktf/hcl2json), without
// Terraform or AWS. Used by terraform.test.mjs and runnable alone:
//   node infra/test/check-terraform.mjs [dir]     exits 1 and lists the problems, if any
import { readdirSync, readFileSync, existsSync } from 'node:fs';
import { join, resolve, dirname } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parse } from '@cdktf/hcl2json';

export const TERRAFORM_DIR = resolve(dirname(fileURLToPath(import.meta.url)), '../terraform');

// Database ports on the db host: PostgreSQL, Tarantool, Redis cache, Redis persistent, the Redis
// queues redis-aof and redis-rdb, Beanstalkd.
export const DB_PORTS = [5432, 3301, 6379, 6380, 6381, 6382, 11300];
export const APP_GROUP = '${aws_security_group.app.id}';
const OPEN_CIDRS = new Set(['0.0.0.0/0', '::/0']);
const DEBIAN_OWNER = '136693071363';

/** Parses every .tf file of dir. Returns { files: [{name, text, json}], raw: [{name, text}] }. */
export async function loadTerraform(dir) {
  const names = readdirSync(dir).sort();
  const files = [];
  for (const name of names.filter((n) => n.endsWith('.tf'))) {
    const text = readFileSync(join(dir, name), 'utf8');
    files.push({ name, text, json: await parse(name, text) });
  }
  // Every text file Terraform reads or we ship beside it: scanned for credentials.
  const raw = [];
  const walk = (sub) => {
    for (const entry of readdirSync(join(dir, sub), { withFileTypes: true })) {
      const rel = sub ? `${sub}/${entry.name}` : entry.name;
      if (entry.isDirectory()) { if (entry.name !== '.terraform') walk(rel); continue; }
      if (/\.(tf|tftpl|tfvars|example|json|yaml|yml)$/.test(entry.name)) raw.push({ name: rel, text: readFileSync(join(dir, rel), 'utf8') });
    }
  };
  walk('');
  return { dir, files, raw };
}

/** Every block of `kind` (resource, data, variable, …) as [{type, name, body, file}]. */
function blocks(tf, kind) {
  const out = [];
  for (const { name: file, json } of tf.files) {
    const section = json[kind];
    if (!section) continue;
    if (kind === 'variable' || kind === 'output') {
      for (const [name, bodies] of Object.entries(section)) for (const body of bodies) out.push({ type: kind, name, body, file });
    } else {
      for (const [type, byName] of Object.entries(section)) {
        for (const [name, bodies] of Object.entries(byName)) for (const body of bodies) out.push({ type, name, body, file });
      }
    }
  }
  return out;
}

const list = (value) => (value === undefined || value === null ? [] : Array.isArray(value) ? value : [value]);
const isLiteral = (value) => typeof value === 'string' && value.length > 0 && !value.includes('${');

/** Every ingress rule, wherever it is written, normalised to {where, group, from, to, protocol, cidrs, groups, self, prefixLists}. */
export function ingressRules(tf) {
  const rules = [];
  for (const r of blocks(tf, 'resource')) {
    if (r.type === 'aws_security_group') {
      for (const rule of list(r.body.ingress)) {
        rules.push({
          where: `aws_security_group.${r.name} ingress`, group: r.name, from: rule.from_port, to: rule.to_port,
          protocol: String(rule.protocol ?? 'tcp'), cidrs: [...list(rule.cidr_blocks), ...list(rule.ipv6_cidr_blocks)],
          groups: list(rule.security_groups), self: rule.self === true, prefixLists: list(rule.prefix_list_ids),
        });
      }
    } else if (r.type === 'aws_security_group_rule' && r.body.type === 'ingress') {
      rules.push({
        where: `aws_security_group_rule.${r.name}`, group: groupName(r.body.security_group_id), from: r.body.from_port, to: r.body.to_port,
        protocol: String(r.body.protocol ?? 'tcp'), cidrs: [...list(r.body.cidr_blocks), ...list(r.body.ipv6_cidr_blocks)],
        groups: list(r.body.source_security_group_id), self: r.body.self === true, prefixLists: list(r.body.prefix_list_ids),
      });
    } else if (r.type === 'aws_vpc_security_group_ingress_rule') {
      rules.push({
        where: `aws_vpc_security_group_ingress_rule.${r.name}`, group: groupName(r.body.security_group_id), from: r.body.from_port, to: r.body.to_port,
        protocol: String(r.body.ip_protocol ?? 'tcp'), cidrs: [...list(r.body.cidr_ipv4), ...list(r.body.cidr_ipv6)],
        groups: list(r.body.referenced_security_group_id), self: false, prefixLists: list(r.body.prefix_list_id),
      });
    }
  }
  return rules;
}

function groupName(reference) {
  const match = /aws_security_group\.([A-Za-z0-9_-]+)\.id/.exec(String(reference ?? ''));
  return match ? match[1] : String(reference);
}

/** True when the rule admits traffic to `port` (protocol -1/all covers every port). */
function covers(rule, port) {
  if (['-1', 'all'].includes(rule.protocol)) return true;
  const from = Number(rule.from);
  const to = Number(rule.to);
  if (!Number.isFinite(from) || !Number.isFinite(to)) return true; // an expression: assume the worst
  return from <= port && port <= to;
}

// ---- the rules: each returns a list of problems (empty = pass) ----------------------------

export function checkTwoInstances(tf) {
  const instances = blocks(tf, 'resource').filter((r) => r.type === 'aws_instance');
  const names = instances.map((r) => r.name).sort();
  const problems = [];
  if (instances.length !== 2) problems.push(`expected exactly two aws_instance, found ${instances.length} (${names.join(', ')})`);
  if (JSON.stringify(names) !== JSON.stringify(['app', 'db'])) problems.push(`the instances must be named db and app, found ${names.join(', ')}`);
  for (const r of instances) if (r.body.count !== undefined || r.body.for_each !== undefined) problems.push(`aws_instance.${r.name} must not use count/for_each`);
  return problems;
}

export function checkOneSubnet(tf) {
  const instances = blocks(tf, 'resource').filter((r) => r.type === 'aws_instance');
  const problems = [];
  const subnets = new Set(instances.map((r) => r.body.subnet_id));
  if (subnets.size !== 1 || subnets.has(undefined)) problems.push(`both instances must name the same subnet_id, found ${[...subnets].join(', ')}`);
  for (const r of instances) {
    if (r.body.availability_zone !== undefined) problems.push(`aws_instance.${r.name} sets availability_zone: the subnet decides it`);
  }
  const created = blocks(tf, 'resource').filter((r) => r.type === 'aws_subnet');
  if (created.length > 1) problems.push(`expected at most one aws_subnet, found ${created.length}`);
  for (const s of [...created, ...blocks(tf, 'data').filter((d) => d.type === 'aws_subnet')]) {
    if (s.body.availability_zone !== '${var.availability_zone}') problems.push(`${s.type}.${s.name} must be in var.availability_zone`);
  }
  return problems;
}

export function checkDbPortsOnlyFromApp(tf) {
  const problems = [];
  const rules = ingressRules(tf);
  for (const rule of rules) {
    const ports = DB_PORTS.filter((p) => covers(rule, p));
    if (ports.length === 0) continue;
    const onlyApp = rule.cidrs.length === 0 && rule.prefixLists.length === 0 && !rule.self &&
      rule.groups.length === 1 && rule.groups[0] === APP_GROUP;
    if (!onlyApp) problems.push(`${rule.where} opens database port(s) ${ports.join(', ')} to something other than the app security group`);
  }
  for (const port of DB_PORTS) {
    const reachable = rules.some((rule) => rule.group === 'db' && covers(rule, port) && rule.groups.includes(APP_GROUP));
    if (!reachable) problems.push(`database port ${port} is not opened on the db security group to the app group`);
  }
  return problems;
}

export function checkNoOpenIngress(tf) {
  const problems = [];
  for (const rule of ingressRules(tf)) {
    for (const cidr of rule.cidrs) {
      if (OPEN_CIDRS.has(cidr)) problems.push(`${rule.where} is open to ${cidr}`);
    }
  }
  // A variable whose default is the whole internet would open whatever uses it.
  for (const v of blocks(tf, 'variable')) {
    for (const value of list(v.body.default)) {
      if (OPEN_CIDRS.has(value)) problems.push(`variable ${v.name} defaults to ${value}`);
    }
  }
  return problems;
}

export function checkVariablesDescribed(tf) {
  const problems = [];
  const variables = blocks(tf, 'variable');
  if (variables.length === 0) problems.push('no variables found');
  for (const v of variables) {
    if (typeof v.body.description !== 'string' || v.body.description.trim().length < 10) problems.push(`variable ${v.name} has no description`);
  }
  return problems;
}

// Patterns of real credentials; the generated password is referenced, never written.
const SECRET_PATTERNS = [
  [/\b(AKIA|ASIA)[0-9A-Z]{16}\b/, 'an AWS access key id'],
  [/-----BEGIN [A-Z ]*PRIVATE KEY-----/, 'a private key'],
  [/aws_secret_access_key|aws_session_token/i, 'an AWS secret key setting'],
  [/\b[a-z_]*(secret|token|password|passwd)\s*[=:]\s*"[^"$\s]{8,}"/i, 'a literal secret, token or password'],
  [/(?<![A-Za-z0-9/+])[A-Za-z0-9/+]{40}(?![A-Za-z0-9/+=])/, 'a 40-character secret-like string'],
];
const CREDENTIAL_ATTRIBUTES = /^(access_key|secret_key|token|password|master_password|secret|private_key)$/i;

export function checkNoCredentials(tf) {
  const problems = [];
  for (const { name, text } of tf.raw) {
    for (const [pattern, what] of SECRET_PATTERNS) if (pattern.test(text)) problems.push(`${name} contains ${what}`);
  }
  // Provider credentials and literal values of credential attributes, anywhere in the tree.
  const visit = (node, path) => {
    if (Array.isArray(node)) { node.forEach((child) => visit(child, path)); return; }
    if (node === null || typeof node !== 'object') return;
    for (const [key, value] of Object.entries(node)) {
      if (CREDENTIAL_ATTRIBUTES.test(key) && list(value).some(isLiteral)) problems.push(`${path}.${key} is a literal credential`);
      visit(value, `${path}.${key}`);
    }
  };
  for (const { name, json } of tf.files) visit(json, name);
  for (const v of blocks(tf, 'variable')) {
    if (/password|secret|token/i.test(v.name) && v.body.default !== undefined && v.body.default !== '') problems.push(`variable ${v.name} has a default value`);
  }
  return problems;
}

export function checkHosts(tf) {
  const problems = [];
  const amis = blocks(tf, 'data').filter((d) => d.type === 'aws_ami');
  if (!amis.some((a) => list(a.body.owners).includes(DEBIAN_OWNER))) problems.push(`no aws_ami data source owned by Debian (${DEBIAN_OWNER})`);
  for (const a of amis) {
    const names = list(a.body.filter).filter((f) => f.name === 'name').flatMap((f) => list(f.values));
    if (!names.some((n) => n.startsWith('debian-12-'))) problems.push(`data.aws_ami.${a.name} does not select debian-12 images`);
  }
  for (const r of blocks(tf, 'resource').filter((x) => x.type === 'aws_instance')) {
    const root = list(r.body.root_block_device)[0];
    if (!root || root.volume_type !== 'gp3') problems.push(`aws_instance.${r.name} root volume is not gp3`);
    if (!root || !String(root.volume_size ?? '').startsWith('${var.')) problems.push(`aws_instance.${r.name} root volume size is not set by a variable`);
    const script = `infra/provision/${r.name}.sh`;
    const template = /templatefile\("\$\{path\.module\}\/([^"]+)"/.exec(String(r.body.user_data ?? ''));
    if (!template) { problems.push(`aws_instance.${r.name} user_data is not a templatefile()`); continue; }
    const file = join(tf.dir, template[1]);
    if (!existsSync(file)) problems.push(`aws_instance.${r.name} user_data template ${template[1]} does not exist`);
    else if (!readFileSync(file, 'utf8').includes(script)) problems.push(`${template[1]} does not run ${script}`);
  }
  const app = blocks(tf, 'resource').find((x) => x.type === 'aws_instance' && x.name === 'app');
  if (app && !String(app.body.user_data ?? '').includes('aws_instance.db.private_ip')) problems.push('the app host is not given the db host private IP');
  return problems;
}

export const RULES = {
  'exactly two aws_instance, db and app': checkTwoInstances,
  'both instances in one subnet of one availability zone': checkOneSubnet,
  'database ports reachable only from the app security group': checkDbPortsOnlyFromApp,
  'no ingress open to 0.0.0.0/0 or ::/0': checkNoOpenIngress,
  'every variable has a description': checkVariablesDescribed,
  'no credentials in the files': checkNoCredentials,
  'Debian 12 AMI, gp3 root volumes, user_data runs infra/provision': checkHosts,
};

/** Runs every rule; returns { rule: problems[] }. */
export async function checkDirectory(dir) {
  const tf = await loadTerraform(dir);
  return Object.fromEntries(Object.entries(RULES).map(([title, rule]) => [title, rule(tf)]));
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const dir = resolve(process.argv[2] ?? TERRAFORM_DIR);
  const results = await checkDirectory(dir);
  let failed = 0;
  for (const [title, problems] of Object.entries(results)) {
    console.log(`${problems.length === 0 ? 'ok  ' : 'FAIL'} ${title}`);
    for (const problem of problems) console.log(`       ${problem}`);
    if (problems.length > 0) failed++;
  }
  console.log(`terraform: ${Object.keys(results).length - failed} passed, ${failed} failed (${dir})`);
  process.exitCode = failed === 0 ? 0 : 1;
}
