// The editor grammars (editors/vscode/syntaxes) on micdb's own programs,
// run by tests/grammars.sh with mocha's TAP reporter:
//  - vscode-tmgrammar-test on tests/grammars/*.test.*: excerpts of
//    programs/ and microcode/ with the scope of every interesting token
//    asserted;
//  - every sample program and microprogram of the tree, tokenized whole
//    with the grammar (vscode-textmate, as VS Code does): every IJVM
//    opcode of src/core/ijvm-ops.def is an instruction keyword, every
//    instruction line starts with one, every MAL line's label and every
//    PMIC block's name is named as such, and comments are comments.
'use strict';

const assert = require('assert');
const cp = require('child_process');
const fs = require('fs');
const path = require('path');
const vsctm = require('vscode-textmate');
const oniguruma = require('vscode-oniguruma');

const TOP = path.resolve(process.env.TOP_SRCDIR || path.join(__dirname, '..', '..'));
const EXT = path.join(TOP, 'editors', 'vscode');
const MANIFEST = JSON.parse(fs.readFileSync(path.join(EXT, 'package.json'), 'utf8'));

function files(dir, re) {
	const d = path.join(TOP, dir);
	if (!fs.existsSync(d))
		return [];
	return fs.readdirSync(d).filter(f => re.test(f)).sort().map(f => path.join(dir, f));
}

const registry = new vsctm.Registry({
	onigLib: (async () => {
		const wasm = fs.readFileSync(require.resolve('vscode-oniguruma/release/onig.wasm'));
		await oniguruma.loadWASM(wasm.buffer.slice(wasm.byteOffset, wasm.byteOffset + wasm.byteLength));
		return {
			createOnigScanner: p => new oniguruma.OnigScanner(p),
			createOnigString: s => new oniguruma.OnigString(s),
		};
	})(),
	loadGrammar: async scope => {
		const g = MANIFEST.contributes.grammars.find(x => x.scopeName === scope);
		if (!g)
			return null;
		const p = path.join(EXT, g.path);
		return vsctm.parseRawGrammar(fs.readFileSync(p, 'utf8'), p);
	},
});

// Each line's tokens: [{ text, start, scopes }].
async function tokenize(scope, text) {
	const grammar = await registry.loadGrammar(scope);
	let stack = vsctm.INITIAL;
	return text.split('\n').map(line => {
		const r = grammar.tokenizeLine(line, stack);
		stack = r.ruleStack;
		return r.tokens.map(t => ({ text: line.slice(t.startIndex, t.endIndex),
		    start: t.startIndex, scopes: t.scopes }));
	});
}

const has = (t, s) => t.scopes.some(x => x.startsWith(s));
const OPCODES = fs.readFileSync(path.join(TOP, 'src', 'core', 'ijvm-ops.def'), 'utf8')
    .split('\n').map(l => /^IJVM_OP\(([A-Z_]+),/.exec(l)).filter(Boolean).map(m => m[1]);

describe('grammar assertions (vscode-tmgrammar-test)', function () {
	this.timeout(60000);
	const tool = require.resolve('vscode-tmgrammar-test/dist/unit.js');
	for (const f of files('tests/grammars', /\.test\./)) {
		it(f, () => {
			const r = cp.spawnSync(process.execPath, [tool, '--compact', '--config',
			    path.join(EXT, 'package.json'), path.join(TOP, f)], { encoding: 'utf8' });
			assert.strictEqual(r.status, 0, r.stdout + r.stderr);
		});
	}
});

describe('the IJVM grammar on every .jas of the tree', function () {
	it(`knows all ${OPCODES.length} opcodes of ijvm-ops.def as instructions`, async () => {
		const lines = await tokenize('source.ijvm-jas', OPCODES.map(o => `\t${o}`).join('\n'));
		lines.forEach((toks, i) => {
			const t = toks.find(x => x.text === OPCODES[i]);
			assert.ok(t && has(t, 'keyword.'), `${OPCODES[i]}: ${t && t.scopes}`);
		});
	});
	const jas = [...files('programs', /\.jas$/), ...files('programs/faults', /\.jas$/),
	    ...files('programs/bench', /\.jas$/), ...files('programs/imul', /\.jas$/),
	    ...files('tests/dap', /\.jas$/), ...files('tests/batch', /\.jas$/)];
	for (const f of jas) {
		it(f, async () => {
			const text = fs.readFileSync(path.join(TOP, f), 'utf8');
			const lines = await tokenize('source.ijvm-jas', text);
			let decl = false, ninsn = 0;
			lines.forEach((toks, i) => {
				const where = `${f}:${i + 1}`;
				const code = toks.filter(t => t.text.trim() !== '' && !has(t, 'comment.'));
				for (const t of toks)
					assert.ok(!has(t, 'invalid.'), `${where}: ${t.text} is invalid`);
				const c = text.split('\n')[i].indexOf('//');
				if (c >= 0)
					assert.ok(toks.some(t => t.start <= c && t.start + t.text.length > c &&
					    (has(t, 'comment.') || has(t, 'string.') || has(t, 'constant.character'))),
					    `${where}: // starts no comment`);
				if (code.length === 0)
					return;
				if (/^\.(constant|var|global)$/.test(code[0].text))
					decl = true;
				if (/^\.end-/.test(code[0].text))
					decl = false;
				if (decl || code[0].text.startsWith('.'))
					return;
				let k = 0;
				if (has(code[0], 'entity.name.label'))
					k = 2;   // the label and its colon
				if (k >= code.length)
					return;
				assert.ok(has(code[k], 'keyword.'), `${where}: ${code[k].text} (${code[k].scopes}) is no instruction`);
				ninsn++;
			});
			assert.ok(ninsn > 0, `${f}: no instructions found`);
		});
	}
});

describe('the MAL grammar on every .mal of the tree', function () {
	const mal = [...files('microcode', /\.mal$/), ...files('programs/imul', /\.mal$/),
	    ...files('tests', /\.mal$/), ...files('tests/batch', /\.mal$/)];
	for (const f of mal) {
		it(f, async () => {
			const text = fs.readFileSync(path.join(TOP, f), 'utf8');
			const src = text.split('\n');
			const lines = await tokenize('source.mic1-mal', text);
			let nlabels = 0;
			lines.forEach((toks, i) => {
				const where = `${f}:${i + 1}`;
				for (const t of toks)
					assert.ok(!has(t, 'invalid.'), `${where}: ${t.text} is invalid`);
				const m = /^([A-Za-z_][A-Za-z0-9_]*)/.exec(src[i]);
				if (m) {
					assert.ok(has(toks[0], 'entity.name.label'), `${where}: label ${m[1]}: ${toks[0].scopes}`);
					nlabels++;
				}
				const c = src[i].indexOf('//');
				if (c >= 0)
					assert.ok(toks.some(t => t.start === c && has(t, 'comment.')), `${where}: // starts no comment`);
				for (const t of toks)
					if (/^(goto|if|else)$/.test(t.text) && !has(t, 'comment.'))
						assert.ok(has(t, 'keyword.control'), `${where}: ${t.text}`);
			});
			assert.ok(nlabels > 0, `${f}: no labels found`);
		});
	}
});

describe('the PMIC grammar on every .pm of the tree', function () {
	for (const f of [...files('microcode', /\.pm$/), ...files('tests', /\.pm$/)]) {
		it(f, async () => {
			const text = fs.readFileSync(path.join(TOP, f), 'utf8');
			const src = text.split('\n');
			const lines = await tokenize('source.pmic', text);
			let nblocks = 0;
			lines.forEach((toks, i) => {
				const where = `${f}:${i + 1}`;
				for (const t of toks)
					assert.ok(!has(t, 'invalid.'), `${where}: ${t.text} is invalid`);
				if (/^[A-Za-z_][A-Za-z0-9_]*\s*\{/.test(src[i])) {
					assert.ok(has(toks[0], 'entity.name.function'), `${where}: ${toks[0].scopes}`);
					nblocks++;
				}
				const c = src[i].indexOf('#');
				if (c >= 0)
					assert.ok(toks.some(t => t.start === c && has(t, 'comment.')), `${where}: # starts no comment`);
			});
			assert.ok(nblocks > 10, `${f}: ${nblocks} blocks`);
		});
	}
});
