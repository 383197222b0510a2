// micdb --dap through @vscode/debugadapter-testsupport, the DAP client
// VS Code's own debug adapters are tested with.  tests/dap.sh runs this
// with mocha's TAP reporter; MICDB names the micdb to test, TOP_SRCDIR
// the source tree.  Whole sessions at the ISA and micro levels on 1 and
// 1,024 cores, breakpoints per core set, data breakpoints, stepping back,
// faults, output, and bad requests and bad bytes (an error, never a
// crash; the session goes on).
'use strict';

const assert = require('assert');
const cp = require('child_process');
const fs = require('fs');
const path = require('path');
const { DebugClient } = require('@vscode/debugadapter-testsupport');

const TOP = path.resolve(process.env.TOP_SRCDIR || path.join(__dirname, '..', '..'));
const MICDB = path.resolve(process.env.MICDB || path.join(TOP, 'src', 'micdb'));
const SUM = fs.realpathSync(path.join(TOP, 'tests', 'dap', 'sum.jas'));
const MAL = fs.realpathSync(path.join(TOP, 'microcode', 'mic1.mal'));
const PM = fs.realpathSync(path.join(TOP, 'microcode', 'pmic.pm'));
const TIMEOUT = 60000;
// what ASan, LeakSanitizer and UBSan print
const SANITIZER = /Sanitizer|runtime error:/;

// The 1-based line of the first line of file that matches re.
function lineOf(file, re) {
	const lines = fs.readFileSync(file, 'utf8').split('\n');
	const i = lines.findIndex(l => re.test(l));
	assert.ok(i >= 0, `${re} in ${file}`);
	return i + 1;
}

// What the command line says about bad options: the batch front end's
// message, without "micdb: ".
function cliError(args) {
	const r = cp.spawnSync(MICDB, ['--batch', '/dev/null', ...args], { cwd: TOP });
	return r.stderr.toString().trim().replace(/^micdb: /, '');
}

// A DebugClient whose events are queued, so that none is lost between
// a request and the wait for its event.
class Session {
	constructor(micdb = MICDB) {
		this.dc = new DebugClient(micdb, '--dap', 'micdb', { cwd: TOP });
		this.dc.defaultTimeout = TIMEOUT;
		this.queue = [];
		this.waiters = [];
		this.output = '';
	}
	async start() {
		await this.dc.start();
		this.stderr = '';
		this.dc._adapterProcess.stderr.on('data', d => { this.stderr += d; });
		for (const name of ['stopped', 'output', 'terminated', 'exited',
		    'thread', 'initialized']) {
			this.dc.on(name, ev => {
				if (name === 'output')
					this.output += ev.body.output;
				this.queue.push(ev);
				this.wake();
			});
		}
	}
	wake() {
		for (const w of this.waiters.slice()) {
			const i = this.queue.findIndex(e => e.event === w.name && w.pred(e));
			if (i >= 0) {
				const [ev] = this.queue.splice(i, 1);
				this.waiters.splice(this.waiters.indexOf(w), 1);
				clearTimeout(w.timer);
				w.resolve(ev);
			}
		}
	}
	// The next event called name (that pred accepts).
	next(name, pred = () => true) {
		return new Promise((resolve, reject) => {
			const w = { name, pred, resolve };
			w.timer = setTimeout(() => {
				this.waiters.splice(this.waiters.indexOf(w), 1);
				reject(new Error(`no '${name}' event; output so far:\n${this.output}`));
			}, TIMEOUT);
			this.waiters.push(w);
			this.wake();
		});
	}
	// initialize, launch, the breakpoints, configurationDone.
	async launch(args, setup = async () => {}) {
		const init = await this.dc.initializeRequest({ adapterID: 'micdb', linesStartAt1: true });
		await this.dc.launchRequest(Object.assign({ engine: 'ref' }, args));
		await this.next('initialized');
		await setup();
		await this.dc.configurationDoneRequest();
		return init;
	}
	// Disconnect; micdb must end cleanly (with ASan: no report).
	async stop() {
		const p = this.dc._adapterProcess;
		const closed = new Promise(resolve => {
			if (p.exitCode !== null || p.signalCode !== null)
				resolve();
			else
				p.on('close', resolve);
		});
		let timer;
		await this.dc.disconnectRequest().catch(() => {});
		await Promise.race([closed, new Promise(resolve => { timer = setTimeout(resolve, TIMEOUT / 2); })]);
		clearTimeout(timer);
		const exited = p.exitCode !== null || p.signalCode !== null;
		this.dc.stopAdapter();
		assert.ok(exited, 'micdb ends after disconnect');
		assert.doesNotMatch(this.stderr, SANITIZER);
		assert.strictEqual(p.signalCode, null, 'micdb ended by a signal');
	}
	async top(threadId) {
		const st = await this.dc.stackTraceRequest({ threadId });
		return st.body.stackFrames;
	}
	async vars(frameId, scopeName) {
		const sc = await this.dc.scopesRequest({ frameId });
		const s = sc.body.scopes.find(x => x.name === scopeName);
		assert.ok(s, `scope ${scopeName} in ${sc.body.scopes.map(x => x.name)}`);
		const v = await this.dc.variablesRequest({ variablesReference: s.variablesReference });
		const o = {};
		for (const x of v.body.variables)
			o[x.name] = x.value;
		o.$ref = s.variablesReference;
		return o;
	}
	async repl(expression) {
		const r = await this.dc.evaluateRequest({ expression, context: 'repl' });
		return r.body.result;
	}
}

async function rejects(promise, re) {
	let err;
	try {
		await promise;
	} catch (e) {
		err = e;
	}
	assert.ok(err, `the request should fail with ${re}`);
	assert.match(err.message, re);
}

// Whole sessions: ISA and micro levels, 1 and 1,024 cores.
function sessionSuites(micdb, label) {
	describe(`${label}, ISA level, 1 core`, function () {
		this.timeout(TIMEOUT);
		let s;
		beforeEach(async () => { s = new Session(micdb); await s.start(); });
		afterEach(async () => { await s.stop(); });

		it('announces its capabilities', async () => {
			const r = await s.dc.initializeRequest({ adapterID: 'micdb' });
			for (const c of ['supportsStepBack', 'supportsConditionalBreakpoints',
			    'supportsHitConditionalBreakpoints', 'supportsFunctionBreakpoints',
			    'supportsInstructionBreakpoints', 'supportsDataBreakpoints',
			    'supportsSetVariable', 'supportsReadMemoryRequest',
			    'supportsWriteMemoryRequest', 'supportsDisassembleRequest',
			    'supportsSteppingGranularity', 'supportsEvaluateForHovers',
			    'supportsConfigurationDoneRequest'])
				assert.strictEqual(r.body[c], true, c);
		});

		it('hits a source breakpoint (the client library\'s own check)', async () => {
			await s.dc.hitBreakpoint({ program: SUM, engine: 'ref' },
			    { path: SUM, line: 25 });
		});

		it('shows frames, locals, operand stack, registers and globals', async () => {
			await s.launch({ program: SUM }, async () => {
				await s.dc.setBreakpointsRequest({ source: { path: SUM },
				    breakpoints: [{ line: 48 }] });
			});
			const st = await s.next('stopped');
			assert.strictEqual(st.body.reason, 'breakpoint');
			const frames = await s.top(st.body.threadId);
			assert.strictEqual(frames.length, 2);
			assert.strictEqual(frames[0].line, 48);
			assert.strictEqual(frames[0].source.path, SUM);
			assert.match(frames[0].name, /^odd/);
			assert.strictEqual(frames[1].line, 24);
			assert.match(frames[1].name, /^main/);
			const loc = await s.vars(frames[0].id, 'Locals');
			assert.strictEqual(loc.n, '0');
			const main = await s.vars(frames[1].id, 'Locals');
			assert.deepStrictEqual([main.me, main.v], ['0', '0']);
			const regs = await s.vars(frames[0].id, 'Registers');
			assert.strictEqual(regs.PC, String(parseInt(frames[0].instructionPointerReference, 16)));
			assert.strictEqual(regs.status, 'running');
			const glob = await s.vars(frames[0].id, 'Globals');
			assert.strictEqual(glob.total, '0');
			await s.vars(frames[0].id, 'Operand stack');
		});

		it('steps in, out, over, by instruction and back', async () => {
			await s.launch({ program: SUM }, async () => {
				await s.dc.setBreakpointsRequest({ source: { path: SUM },
				    breakpoints: [{ line: 24 }] });
			});
			let st = await s.next('stopped');
			const t = st.body.threadId;
			await s.dc.stepInRequest({ threadId: t });
			st = await s.next('stopped');
			assert.strictEqual(st.body.reason, 'step');
			assert.strictEqual((await s.top(t))[0].line, 48);
			await s.dc.stepOutRequest({ threadId: t });
			await s.next('stopped');
			assert.strictEqual((await s.top(t))[0].line, 25);
			await s.dc.stepBackRequest({ threadId: t });
			await s.next('stopped');
			assert.strictEqual((await s.top(t))[0].line, 53, 'back at IRETURN');
			await s.dc.stepBackRequest({ threadId: t, granularity: 'instruction' });
			await s.next('stopped');
			assert.strictEqual((await s.top(t))[0].line, 52);
			await s.dc.reverseContinueRequest({ threadId: t });
			st = await s.next('stopped');
			assert.strictEqual(st.body.reason, 'breakpoint');
			assert.strictEqual((await s.top(t))[0].line, 24);
			await s.dc.nextRequest({ threadId: t });
			await s.next('stopped');
			assert.strictEqual((await s.top(t))[0].line, 25, 'next steps over the call');
			await s.dc.nextRequest({ threadId: t, granularity: 'instruction' });
			await s.next('stopped');
			assert.strictEqual((await s.top(t))[0].line, 26);
		});

		it('watches an array element (a heap word), then stops at the fault', async () => {
			const oob = fs.realpathSync(path.join(TOP, 'programs', 'faults', 'array_oob.jas'));
			let set;
			await s.launch({ program: oob }, async () => {
				const info = await s.dc.dataBreakpointInfoRequest({ name: 'heap 0x200003' });
				set = await s.dc.setDataBreakpointsRequest({ breakpoints: [
				    { dataId: info.body.dataId, accessType: 'write' }] });
			});
			assert.strictEqual(set.body.breakpoints[0].verified, true, JSON.stringify(set.body));
			let st = await s.next('stopped');
			assert.strictEqual(st.body.reason, 'data breakpoint');
			assert.match(st.body.description, /^watchpoint \d+: heap/);
			assert.match(s.output, /old value = 0\s+new value = 1/);
			await s.dc.continueRequest({ threadId: st.body.threadId });
			st = await s.next('stopped');
			assert.strictEqual(st.body.reason, 'exception');
			assert.match(st.body.text, /^core 0 faulted: array index out of bounds/);
			const f = await s.top(st.body.threadId);
			assert.strictEqual(f[0].source.path, oob);
			assert.strictEqual(f[0].line, lineOf(oob, /IASTORE.*faults when/));
			assert.strictEqual((await s.vars(f[0].id, 'Locals')).i, '5');
			assert.match(s.output, /a\[5\]\n/);
			await s.dc.continueRequest({ threadId: st.body.threadId });
			assert.strictEqual((await s.next('exited')).body.exitCode, 1);
		});

		it('counts lines from 0 for a client that asks (linesStartAt1 false)', async () => {
			await s.dc.initializeRequest({ adapterID: 'micdb', linesStartAt1: false });
			await s.dc.launchRequest({ program: SUM, engine: 'ref' });
			await s.next('initialized');
			const bp = await s.dc.setBreakpointsRequest({ source: { path: SUM },
			    breakpoints: [{ line: 47 }] });
			assert.strictEqual(bp.body.breakpoints[0].line, 47);
			await s.dc.configurationDoneRequest();
			const st = await s.next('stopped');
			const f = await s.top(st.body.threadId);
			assert.deepStrictEqual([f[0].line, f[1].line], [47, 23]);
		});

		it('runs to the end: output, exited, terminated', async () => {
			await s.launch({ program: SUM });
			const out = await s.next('output', e => e.body.category === 'stdout');
			assert.strictEqual(out.body.output, 'v\n');
			const ex = await s.next('exited');
			assert.strictEqual(ex.body.exitCode, 0);
			await s.next('terminated');
		});

		it('opens a trace from launch\'s trace attributes, as --trace does', async () => {
			// no suffix: the format comes from traceFormat alone
			const file = path.join(require('os').tmpdir(),
			    `micdb-dap-trace-${process.pid}-${label.replace(/\W/g, '')}`);
			await s.launch({ program: SUM, stopOnEntry: true, trace: file,
			    traceFormat: 'jsonl', traceCores: '1', cores: 4 });
			await s.next('stopped');
			await s.repl('stepi 3');
			await s.next('stopped');
			assert.match(await s.repl('trace stop'), /trace/);
			const lines = fs.readFileSync(file, 'utf8').trim().split('\n');
			fs.unlinkSync(file);
			assert.ok(lines.length >= 3, `${lines.length} lines`);
			for (const l of lines)
				assert.deepStrictEqual(JSON.parse(l).cores.map(c => c.core),
				    [1], 'traceCores: core 1 alone');
		});

		it('stops on entry; evaluates commands, expressions and hovers', async () => {
			await s.launch({ program: SUM, stopOnEntry: true });
			const st = await s.next('stopped');
			assert.strictEqual(st.body.reason, 'entry');
			assert.match(await s.repl('info warps'), /warp/);
			assert.match(await s.repl('info registers'), /PC/);
			const frames = await s.top(st.body.threadId);
			const r = await s.dc.evaluateRequest({ expression: '$ncores * 6 + 1',
			    context: 'watch', frameId: frames[0].id });
			assert.strictEqual(r.body.result, '7');
			const h = await s.dc.evaluateRequest({ expression: 'me',
			    context: 'hover', frameId: frames[0].id });
			assert.strictEqual(h.body.result, '0');
			await rejects(s.dc.evaluateRequest({ expression: 'nosuchname',
			    context: 'watch', frameId: frames[0].id }), /nosuchname/);
			await rejects(s.repl('frobnicate'), /unknown command 'frobnicate'/);
			// a run from the console reports its stop
			await s.repl('stepi 3');
			await s.next('stopped');
			assert.strictEqual((await s.top(st.body.threadId))[0].line, 23);
			// going back from the console too
			assert.match(await s.repl('reverse-stepi'), /went back 1 step/);
			assert.strictEqual((await s.next('stopped')).body.reason, 'step');
			assert.strictEqual((await s.top(st.body.threadId))[0].line, 22);
			// and a level switch: frame 0 is now the micro-instruction
			await s.repl('set level mic');
			assert.strictEqual((await s.next('stopped')).body.reason, 'level');
			const mf = await s.top(st.body.threadId);
			assert.strictEqual(mf[0].source.path, MAL);
			assert.strictEqual(mf[1].line, 22);
		});

		it('sets variables and memory', async () => {
			await s.launch({ program: SUM }, async () => {
				await s.dc.setBreakpointsRequest({ source: { path: SUM },
				    breakpoints: [{ line: 26 }] });
			});
			const st = await s.next('stopped');
			const f = (await s.top(st.body.threadId))[0];
			const loc = await s.vars(f.id, 'Locals');
			const r = await s.dc.setVariableRequest({ variablesReference: loc.$ref,
			    name: 'v', value: '20 + 1' });
			assert.strictEqual(r.body.value, '21');
			assert.strictEqual((await s.vars(f.id, 'Locals')).v, '21');
			const regs = await s.vars(f.id, 'Registers');
			await s.dc.setVariableRequest({ variablesReference: regs.$ref,
			    name: 'H', value: '0x10' });
			assert.strictEqual((await s.vars(f.id, 'Registers')).H, '16');
			// globals: total at word 0x100000, big-endian words
			const w = await s.dc.customRequest('writeMemory',
			    { memoryReference: '0x100000', data: Buffer.from([0, 0, 1, 2]).toString('base64') });
			assert.strictEqual(w.body.bytesWritten, 4);
			const m = await s.dc.customRequest('readMemory',
			    { memoryReference: '0x100000', count: 8 });
			assert.deepStrictEqual([...Buffer.from(m.body.data, 'base64')],
			    [0, 0, 1, 2, 0, 0, 0, 0]);
			assert.strictEqual((await s.vars(f.id, 'Globals')).total, '258');
			await rejects(s.dc.customRequest('writeMemory',
			    { memoryReference: '0x200000', data: 'AAAAAQ==' }), /writes globals/);
			const un = await s.dc.customRequest('readMemory',
			    { memoryReference: '0x7fffffff', count: 8 });
			assert.strictEqual(un.body.unreadableBytes, 8);
			// the run goes on with the values set
			await s.dc.continueRequest({ threadId: st.body.threadId });
			await s.next('terminated');
			assert.ok(true);
		});

		it('disassembles around an instruction', async () => {
			await s.launch({ program: SUM, stopOnEntry: true });
			await s.next('stopped');
			const d = await s.dc.disassembleRequest({ memoryReference: '0x0000',
			    instructionOffset: -2, instructionCount: 6 });
			const ins = d.body.instructions;
			assert.strictEqual(ins.length, 6);
			assert.strictEqual(ins[0].presentationHint, 'invalid');
			assert.strictEqual(ins[2].instruction, 'COREID');
			assert.strictEqual(ins[2].line, 20);
			assert.match(ins[3].instruction, /^ISTORE/);
		});

		it('function, instruction and hit-count breakpoints', async () => {
			let fb, ib;
			await s.launch({ program: SUM }, async () => {
				fb = await s.dc.setFunctionBreakpointsRequest({ breakpoints: [{ name: 'odd' },
				    { name: 'nosuch' }] });
				ib = await s.dc.customRequest('setInstructionBreakpoints',
				    { breakpoints: [{ instructionReference: '0x0003' }] });
			});
			assert.strictEqual(fb.body.breakpoints[0].verified, true);
			assert.strictEqual(fb.body.breakpoints[0].line, 48);
			assert.strictEqual(fb.body.breakpoints[1].verified, false);
			assert.match(fb.body.breakpoints[1].message, /no such label or method 'nosuch'/);
			assert.strictEqual(ib.body.breakpoints[0].verified, true);
			let st = await s.next('stopped');
			assert.strictEqual(st.body.reason, 'breakpoint');
			assert.deepStrictEqual(st.body.hitBreakpointIds, [ib.body.breakpoints[0].id]);
			await s.dc.continueRequest({ threadId: st.body.threadId });
			st = await s.next('stopped');
			assert.deepStrictEqual(st.body.hitBreakpointIds, [fb.body.breakpoints[0].id]);
			const bad = await s.dc.setBreakpointsRequest({ source: { path: SUM },
			    breakpoints: [{ line: 49, hitCondition: 'often' }, { line: 50, hitCondition: '2' },
			    { line: 51, condition: 'n ==' }] });
			assert.strictEqual(bad.body.breakpoints[0].verified, false);
			assert.match(bad.body.breakpoints[0].message, /hitCondition/);
			assert.strictEqual(bad.body.breakpoints[1].verified, true);
			assert.strictEqual(bad.body.breakpoints[2].verified, false);
			assert.ok(bad.body.breakpoints[2].message.length > 0);
			assert.match(await s.repl('info break'), /will ignore next 1 crossings/);
		});

		it('stops at a data breakpoint on a global and on a local', async () => {
			await s.launch({ program: SUM, stopOnEntry: true });
			const st0 = await s.next('stopped');
			const f = (await s.top(st0.body.threadId))[0];
			const glob = await s.vars(f.id, 'Globals');
			const info = await s.dc.dataBreakpointInfoRequest({ variablesReference: glob.$ref,
			    name: 'total' });
			assert.strictEqual(info.body.dataId, 'total');
			const loc = await s.vars(f.id, 'Locals');
			const li = await s.dc.dataBreakpointInfoRequest({ variablesReference: loc.$ref,
			    name: 'v' });
			assert.strictEqual(li.body.dataId, 'local v core 0');
			const set = await s.dc.setDataBreakpointsRequest({ breakpoints: [
			    { dataId: li.body.dataId, accessType: 'write' },
			    { dataId: info.body.dataId, accessType: 'write' }] });
			assert.ok(set.body.breakpoints.every(b => b.verified));
			await s.dc.continueRequest({ threadId: st0.body.threadId });
			let st = await s.next('stopped');
			assert.strictEqual(st.body.reason, 'data breakpoint');
			assert.deepStrictEqual(st.body.hitBreakpointIds, [set.body.breakpoints[0].id]);
			assert.match(s.output, /old value = 0\s+new value = 1/);
			await s.dc.continueRequest({ threadId: st.body.threadId });
			st = await s.next('stopped');
			assert.strictEqual(st.body.reason, 'data breakpoint');
			assert.deepStrictEqual(st.body.hitBreakpointIds, [set.body.breakpoints[1].id]);
			assert.strictEqual((await s.top(st.body.threadId))[0].line, 28);
			// an array element: a heap word, named as watch names it
			const hi = await s.dc.dataBreakpointInfoRequest({ name: 'heap 0x200002' });
			assert.strictEqual(hi.body.dataId, 'heap 0x200002');
			const no = await s.dc.setDataBreakpointsRequest({ breakpoints: [
			    { dataId: 'nosuchglobal', accessType: 'write' }] });
			assert.strictEqual(no.body.breakpoints[0].verified, false);
		});
	});

	describe(`${label}, ISA level, 1,024 cores`, function () {
		this.timeout(TIMEOUT);
		let s;
		beforeEach(async () => { s = new Session(micdb); await s.start(); });
		afterEach(async () => { await s.stop(); });

		it('breakpoints per core set, bounded threads, focus follows the thread', async () => {
			let bp;
			await s.launch({ program: SUM, cores: 1024 }, async () => {
				bp = await s.dc.setBreakpointsRequest({ source: { path: SUM }, breakpoints: [
				    { line: 48, condition: 'core 512-515' },
				    { line: 27, cores: '1000', condition: 'v > 2000' }] });
			});
			assert.ok(bp.body.breakpoints.every(b => b.verified), JSON.stringify(bp.body));
			let st = await s.next('stopped');
			assert.strictEqual(st.body.reason, 'breakpoint');
			assert.strictEqual(st.body.threadId, 513);
			assert.match(st.body.description, /hit by cores 512-515 \[4 of 1024\]/);
			let th = (await s.dc.threadsRequest()).body.threads;
			assert.ok(th.length <= 64, `${th.length} threads`);
			const names = th.map(t => t.name);
			assert.ok(names.includes('core 512 (warp 16, lane 0)'), names.join());
			assert.ok(names.includes('core 515 (warp 16, lane 3)'), names.join());
			// the editor picks core 515: it is the focus
			const f = await s.top(516);
			assert.strictEqual(f[0].line, 48);
			assert.strictEqual(await s.repl('print $core'), '$1 = 515');
			assert.strictEqual((await s.vars(f[0].id, 'Locals')).n, '515');
			// the console moves the focus: the editor is told
			await s.repl('core 700');
			st = await s.next('stopped');
			assert.strictEqual(st.body.reason, 'focus');
			assert.strictEqual(st.body.threadId, 701);
			th = (await s.dc.threadsRequest()).body.threads;
			assert.ok(th.some(t => t.name === 'core 700 (warp 21, lane 28)'));
			await s.dc.continueRequest({ threadId: 516 });
			st = await s.next('stopped');
			assert.strictEqual(st.body.threadId, 1001);
			assert.deepStrictEqual(st.body.hitBreakpointIds, [bp.body.breakpoints[1].id]);
			assert.strictEqual((await s.vars((await s.top(1001))[0].id, 'Locals')).v, '2001');
			th = (await s.dc.threadsRequest()).body.threads;
			assert.ok(th.some(t => t.id === 1001));
		});

		it('a data breakpoint that 1,024 cores hit at once: bounded threads', async () => {
			await s.launch({ program: SUM, cores: 1024 }, async () => {
				await s.dc.setDataBreakpointsRequest({ breakpoints: [
				    { dataId: 'total', accessType: 'write' }] });
			});
			const st = await s.next('stopped');
			assert.strictEqual(st.body.reason, 'data breakpoint');
			assert.match(st.body.description, /changed by cores 0-.* \[1024 of 1024\]/);
			const th = (await s.dc.threadsRequest()).body.threads;
			assert.ok(th.length > 1 && th.length <= 50, `${th.length} threads`);
			assert.strictEqual(await s.repl('print total'), '$1 = ' + 1024 * 1024);
			// and back: the global is 0 again before that step
			await s.dc.stepBackRequest({ threadId: st.body.threadId });
			await s.next('stopped');
			assert.strictEqual(await s.repl('print total'), '$2 = 0');
		});

		it('a fault stops with an exception and its text; output per core', async () => {
			await s.launch({ program: SUM, cores: 1024 });
			const st = await s.next('stopped');
			assert.strictEqual(st.body.reason, 'exception');
			assert.match(st.body.text, /^core 5 \[1 of 1024\] faulted: array index out of bounds/);
			assert.strictEqual(st.body.threadId, 6);
			assert.strictEqual((await s.top(6))[0].line, 43);
			await s.dc.continueRequest({ threadId: 6 });
			const ex = await s.next('exited');
			assert.strictEqual(ex.body.exitCode, 1);
			await s.next('terminated');
			assert.match(s.output, /^\[core 1023\] v$/m);
			assert.match(s.output, /^\[core 0\] v$/m);
			assert.doesNotMatch(s.output, /^\[core 5\] v$/m);
		});

		it('pause stops a long run', async () => {
			await s.launch({ program: path.join(TOP, 'tests', 'dap', 'spin.jas'),
			    cores: 1024, stopOnEntry: true });
			const st0 = await s.next('stopped');
			await s.dc.continueRequest({ threadId: st0.body.threadId });
			// while it runs: threads answer, other requests are refused
			assert.ok((await s.dc.threadsRequest()).success);
			await rejects(s.dc.stackTraceRequest({ threadId: 1 }), /running \(pause first\)/);
			await s.dc.pauseRequest({ threadId: st0.body.threadId });
			const st = await s.next('stopped');
			assert.strictEqual(st.body.reason, 'pause');
			assert.match(await s.repl('print $step'), /^\$1 = [1-9]/);
		});

		it('the default engine (OpenCL) runs a session too', async () => {
			const init = await s.dc.initializeRequest({ adapterID: 'micdb' });
			assert.ok(init.success);
			await s.dc.launchRequest({ program: SUM, cores: 64 });
			await s.next('initialized');
			await s.dc.setBreakpointsRequest({ source: { path: SUM },
			    breakpoints: [{ line: 25, condition: 'core 40' }] });
			await s.dc.configurationDoneRequest();
			const st = await s.next('stopped');
			assert.strictEqual(st.body.threadId, 41);
			assert.strictEqual((await s.top(41))[0].line, 25);
		});
	});

	describe(`${label}, micro levels`, function () {
		this.timeout(TIMEOUT);
		let s;
		beforeEach(async () => { s = new Session(micdb); await s.start(); });
		afterEach(async () => { await s.stop(); });

		it('Mic-1, 1 core: .mal breakpoints, micro frame, MIR, micro-steps and back', async () => {
			const line = lineOf(MAL, /^iadd1\s/);
			let bp;
			await s.launch({ program: SUM, level: 'mic' }, async () => {
				bp = await s.dc.setBreakpointsRequest({ source: { path: MAL },
				    breakpoints: [{ line }] });
			});
			assert.strictEqual(bp.body.breakpoints[0].verified, true, JSON.stringify(bp.body));
			assert.strictEqual(bp.body.breakpoints[0].line, line);
			const st = await s.next('stopped');
			assert.strictEqual(st.body.reason, 'breakpoint');
			const t = st.body.threadId;
			let f = await s.top(t);
			assert.strictEqual(f[0].source.path, MAL);
			assert.strictEqual(f[0].line, line);
			assert.match(f[0].name, /iadd1/);
			assert.strictEqual(f[1].source.path, SUM);
			assert.strictEqual(f[1].line, 50, 'the first IADD of odd');
			const micro = await s.vars(f[0].id, 'Mic-1 registers');
			assert.match(micro.MIR, /^0x[0-9a-f]{9}$/);
			assert.ok('MPC' in micro && 'MBR' in micro);
			const mpc = micro.MPC;
			await s.dc.stepInRequest({ threadId: t, granularity: 'instruction' });
			await s.next('stopped');
			f = await s.top(t);
			assert.notStrictEqual((await s.vars(f[0].id, 'Mic-1 registers')).MPC, mpc);
			assert.strictEqual(f[0].line, line + 1);
			await s.dc.stepBackRequest({ threadId: t, granularity: 'instruction' });
			await s.next('stopped');
			f = await s.top(t);
			assert.strictEqual((await s.vars(f[0].id, 'Mic-1 registers')).MPC, mpc);
			// next works on ISA instructions
			await s.dc.nextRequest({ threadId: t });
			await s.next('stopped');
			f = await s.top(t);
			assert.strictEqual(f[1].line, 51);
			// a .jas line breakpoint at the micro level
			await s.dc.setBreakpointsRequest({ source: { path: MAL }, breakpoints: [] });
			await s.dc.setBreakpointsRequest({ source: { path: SUM }, breakpoints: [{ line: 27 }] });
			await s.dc.continueRequest({ threadId: t });
			await s.next('stopped');
			assert.strictEqual((await s.top(t))[1].line, 27);
			await s.dc.continueRequest({ threadId: t });
			await s.next('terminated');
			assert.strictEqual(s.output.includes('v\n'), true);
		});

		it('Mic-1, 1,024 cores: an mpc function breakpoint on a core set', async () => {
			let fb;
			await s.launch({ program: SUM, level: 'mic', cores: 1024 }, async () => {
				fb = await s.dc.setFunctionBreakpointsRequest({ breakpoints: [
				    { name: 'mpc iadd1', condition: 'core 700-701' }] });
			});
			assert.strictEqual(fb.body.breakpoints[0].verified, true, JSON.stringify(fb.body));
			const st = await s.next('stopped');
			assert.match(st.body.description, /hit by cores 700-701 \[2 of 1024\] at MPC/);
			assert.strictEqual(st.body.threadId, 701);
			const th = (await s.dc.threadsRequest()).body.threads;
			assert.ok(th.some(t => t.name === 'core 701 (warp 21, lane 29)'));
			assert.ok(th.length <= 64);
			assert.match(await s.repl('info warps 21'), /21/);
		});

		it('Mic-1, 1,024 cores: a data breakpoint, stepping back, a fault, output', async () => {
			await s.launch({ program: SUM, level: 'mic', cores: 1024, stopOnEntry: true });
			const st0 = await s.next('stopped');
			const info = await s.dc.dataBreakpointInfoRequest({ name: 'total' });
			const set = await s.dc.setDataBreakpointsRequest({ breakpoints: [
			    { dataId: info.body.dataId, accessType: 'write' }] });
			assert.strictEqual(set.body.breakpoints[0].verified, true);
			await s.dc.continueRequest({ threadId: st0.body.threadId });
			let st = await s.next('stopped');
			assert.strictEqual(st.body.reason, 'data breakpoint');
			assert.match(st.body.description, /^watchpoint \d+: global total changed by cores? /);
			const th = (await s.dc.threadsRequest()).body.threads;
			assert.ok(th.length >= 2 && th.length <= 50, `${th.length} threads`);
			const t = st.body.threadId;
			const before = await s.repl('print total');
			await s.dc.stepBackRequest({ threadId: t, granularity: 'instruction' });
			st = await s.next('stopped');
			assert.strictEqual(st.body.reason, 'step');
			assert.notStrictEqual(await s.repl('print total'), before);
			await s.dc.setDataBreakpointsRequest({ breakpoints: [] });
			await s.dc.continueRequest({ threadId: t });
			st = await s.next('stopped');
			assert.strictEqual(st.body.reason, 'exception');
			assert.match(st.body.text, /^core 5 \[1 of 1024\] faulted: /);
			assert.strictEqual(st.body.threadId, 6);
			await s.dc.continueRequest({ threadId: 6 });
			assert.strictEqual((await s.next('exited')).body.exitCode, 1);
			assert.match(s.output, /^\[core 1023\] v$/m);
		});

		it('PMIC: a .pm breakpoint, the PMIC registers', async () => {
			const line = lineOf(PM, /^iadd\s*\{/);
			let bp;
			await s.launch({ program: SUM, level: 'pmic' }, async () => {
				bp = await s.dc.setBreakpointsRequest({ source: { path: PM },
				    breakpoints: [{ line }] });
			});
			assert.strictEqual(bp.body.breakpoints[0].verified, true, JSON.stringify(bp.body));
			const st = await s.next('stopped');
			assert.strictEqual(st.body.reason, 'breakpoint');
			const f = await s.top(st.body.threadId);
			assert.strictEqual(f[0].source.path, PM);
			const regs = await s.vars(f[0].id, 'PMIC registers');
			assert.ok('G0' in regs && 'G1' in regs && 'MPC' in regs, Object.keys(regs).join());
		});

		it('.mal breakpoints need the micro level', async () => {
			await s.launch({ program: SUM, stopOnEntry: true }, async () => {
				const bp = await s.dc.setBreakpointsRequest({ source: { path: MAL },
				    breakpoints: [{ line: 200 }] });
				assert.strictEqual(bp.body.breakpoints[0].verified, false);
				assert.match(bp.body.breakpoints[0].message, /no Mic-1 microprogram is loaded/);
			});
			await s.next('stopped');
		});
	});
}

// Bytes that are no DAP message, straight to micdb --dap's stdin.
function rawSession(micdb, chunks) {
	return new Promise((resolve) => {
		const p = cp.spawn(micdb, ['--dap'], { cwd: TOP });
		let out = Buffer.alloc(0), err = '';
		p.stdout.on('data', d => { out = Buffer.concat([out, d]); });
		p.stderr.on('data', d => { err += d; });
		p.on('close', (code, signal) => {
			assert.doesNotMatch(err, SANITIZER);
			assert.strictEqual(signal, null, 'micdb ended by a signal');
			resolve({ code, out: out.toString(), err });
		});
		p.stdin.on('error', () => {});
		for (const c of chunks)
			p.stdin.write(c);
		p.stdin.end();
	});
}

function frame(obj) {
	const b = Buffer.from(JSON.stringify(obj));
	return Buffer.concat([Buffer.from(`Content-Length: ${b.length}\r\n\r\n`), b]);
}

const INIT = frame({ seq: 1, type: 'request', command: 'initialize', arguments: {} });


// Every suite, to micdb and (when the build has it) to micdb built with
// ASan and UBSan, where a memory error or a leak fails the test.
function suites(micdb, label) {
	sessionSuites(micdb, label);
	describe(`${label}, bad requests`, function () {
		this.timeout(TIMEOUT);
		let s;
		beforeEach(async () => { s = new Session(micdb); await s.start(); });
		afterEach(async () => { await s.stop(); });

		it('unknown command and requests out of order: errors, the session goes on', async () => {
			await s.dc.initializeRequest({ adapterID: 'micdb' });
			await rejects(s.dc.customRequest('frobnicate'), /unknown request 'frobnicate'/);
			await rejects(s.dc.stackTraceRequest({ threadId: 1 }), /send launch first/);
			await rejects(s.dc.configurationDoneRequest(), /send launch first/);
			await s.dc.launchRequest({ program: SUM, engine: 'ref' });
			await s.next('initialized');
			// offered by no capability, but some clients send it
			const eb = await s.dc.setExceptionBreakpointsRequest({ filters: [] });
			assert.deepStrictEqual(eb.body.breakpoints, []);
			await rejects(s.dc.launchRequest({ program: SUM }), /one launch per session/);
			await rejects(s.dc.continueRequest({ threadId: 1 }), /configurationDone first/);
			await s.dc.configurationDoneRequest();
			await s.next('terminated');
			await rejects(s.dc.configurationDoneRequest(), /twice/);
			await rejects(s.dc.stackTraceRequest({ threadId: 5000 }), /no thread 5000/);
			await rejects(s.dc.variablesRequest({ variablesReference: 1e12 }), /variablesReference/);
			await rejects(s.dc.customRequest('readMemory', { memoryReference: 'xyz', count: 4 }),
			    /memoryReference/);
			await rejects(s.dc.customRequest('disassemble', { memoryReference: '0' }),
			    /instructionCount/);
			const th = await s.dc.threadsRequest();
			assert.ok(th.success);
		});

		for (const [args, cli] of [
			[{ cores: -5 }, ['--cores', '-5']],
			[{ engine: 'bogus' }, ['--engine', 'bogus']],
			[{ level: 'xyz' }, ['--level', 'xyz']],
			[{ stackWords: 3 }, ['--stack-words', '3']],
			[{ program: 'nosuch.jas' }, null],
			[{ programs: [{ program: 'tests/dap/sum.jas', cores: '0-3,2' }], cores: 4 },
			    ['--cores', '4', '--program', 'tests/dap/sum.jas:0-3,2']],
		]) {
			it(`launch ${JSON.stringify(args)}: the command line's message`, async () => {
				const want = cli ? cliError([...cli, 'tests/dap/sum.jas']) : cliError(['nosuch.jas']);
				assert.ok(want.length > 0);
				await s.dc.initializeRequest({ adapterID: 'micdb' });
				await rejects(s.dc.launchRequest(Object.assign({ program: SUM, engine: 'ref' }, args)),
				    new RegExp('^' + want.replace(/[.*+?^${}()|[\]\\]/g, '\\$&') + '$'));
				// and the session goes on: a good launch now works
				await s.dc.launchRequest({ program: SUM, engine: 'ref' });
				await s.next('initialized');
			});
		}

		it('launch attributes of the wrong type', async () => {
			await s.dc.initializeRequest({ adapterID: 'micdb' });
			await rejects(s.dc.launchRequest({ program: SUM, cores: { n: 1 } }),
			    /cores must be a number or a string/);
			await rejects(s.dc.launchRequest({ program: 5 }), /program must be a file/);
			await rejects(s.dc.launchRequest({ program: SUM, programs: 'x' }), /programs must be an array/);
		});

		it('forkJoin: the fork-join model (--fork-join)', async () => {
			await s.launch({ cores: 4, forkJoin: true,
			    program: path.join(TOP, 'programs', 'forksum.jas') });
			await s.next('terminated');
			assert.match(s.output, /^\[core 0\] total = 820$/m);
		});

		it('MIMD programs with core ranges', async () => {
			await s.launch({ cores: 4, programs: [{ program: SUM, cores: '0-1' },
			    { program: path.join(TOP, 'programs', 'hello.jas'), cores: '2-3' }] });
			await s.next('terminated');
			assert.match(s.output, /^\[core 2\] Hello, world!$/m);
			assert.match(s.output, /^\[core 1\] v$/m);
		});
	});

	describe(`${label}, bad bytes`, function () {
		this.timeout(TIMEOUT);

		it('a bad Content-Length: an error on stderr, then the next request', async () => {
			const r = await rawSession(micdb, [Buffer.from('Content-Length: abc\r\n\r\n{}'), INIT]);
			assert.match(r.err, /bad Content-Length 'abc'/);
			assert.match(r.out, /"command":"initialize"/);
			assert.strictEqual(r.code, 0);
		});

		it('truncated JSON: an error, then the next request', async () => {
			const r = await rawSession(micdb, [Buffer.from('Content-Length: 12\r\n\r\n{"seq": 1, "'), INIT]);
			assert.match(r.err, /truncated JSON/);
			assert.match(r.out, /"success":true/);
		});

		it('a huge message is skipped, not kept', async () => {
			const n = 20 << 20;
			const r = await rawSession(micdb, [Buffer.from(`Content-Length: ${n}\r\n\r\n`),
			    Buffer.alloc(n, 32), INIT]);
			assert.match(r.err, /more than the limit/);
			assert.match(r.out, /"command":"initialize"/);
		});

		it('not a request: an error response', async () => {
			const r = await rawSession(micdb, [frame({ seq: 1, type: 'request', arguments: {} }),
			    frame({ seq: 2, type: 'request', command: 'launch', arguments: [] }), INIT]);
			assert.match(r.err, /not a request/);
			assert.match(r.out, /"request_seq":2,"success":false/);
			assert.match(r.out, /"request_seq":1,"success":true,"command":"initialize"/);
		});

		it('input that ends inside a message: exit status 1', async () => {
			const r = await rawSession(micdb, [INIT, Buffer.from('Content-Length: 100\r\n\r\n{"se')]);
			assert.match(r.err, /input ended inside message 2/);
			assert.strictEqual(r.code, 1);
		});
	});
}

suites(MICDB, 'micdb --dap');
if (process.env.MICDB_ASAN && fs.existsSync(process.env.MICDB_ASAN))
	suites(path.resolve(process.env.MICDB_ASAN), 'micdb --dap (ASan)');
