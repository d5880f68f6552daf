// node --test: the Terraform in infra/terraform passes every topology rule, and each rule
// fails on a deliberately bad fixture (so a rule that can no longer fail is noticed).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';
import { RULES, TERRAFORM_DIR, loadTerraform } from './check-terraform.mjs';

const HERE = dirname(fileURLToPath(import.meta.url));
const BAD = join(HERE, 'fixtures/bad');
const CHECKER = join(HERE, 'check-terraform.mjs');

const real = await loadTerraform(TERRAFORM_DIR);
const bad = await loadTerraform(BAD);

for (const [title, rule] of Object.entries(RULES)) {
  test(`infra/terraform: ${title}`, () => {
    assert.deepEqual(rule(real), []);
  });
  test(`bad fixture fails: ${title}`, () => {
    assert.notEqual(rule(bad).length, 0, `the rule found nothing wrong in ${BAD}`);
  });
}

test('every .tf file in infra/terraform parses', () => {
  const names = real.files.map((f) => f.name).sort();
  for (const expected of ['main.tf', 'outputs.tf', 'variables.tf', 'versions.tf']) assert.ok(names.includes(expected), `${expected} missing`);
});

test('the checker exits 0 on infra/terraform and 1 on the bad fixture', () => {
  const good = spawnSync(process.execPath, [CHECKER, TERRAFORM_DIR], { encoding: 'utf8' });
  assert.equal(good.status, 0, good.stdout + good.stderr);
  const failing = spawnSync(process.execPath, [CHECKER, BAD], { encoding: 'utf8' });
  assert.equal(failing.status, 1, failing.stdout + failing.stderr);
  assert.match(failing.stdout, /FAIL database ports reachable only from the app security group/);
});

test('the versions pin Terraform >= 1.5 and the AWS provider ~> 5', () => {
  const versions = real.files.find((f) => f.name === 'versions.tf').json.terraform[0];
  assert.equal(versions.required_version, '>= 1.5');
  assert.match(versions.required_providers[0].aws.version, /^~> 5(\.|$)/);
});
