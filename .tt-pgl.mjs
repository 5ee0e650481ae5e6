import { PGlite } from '@electric-sql/pglite';
let t=performance.now();
const a = await PGlite.create('memory://');
console.log('create', Math.round(performance.now()-t)); t=performance.now();
const b = await PGlite.create('memory://');
console.log('create2', Math.round(performance.now()-t)); t=performance.now();
const d = await a.dumpDataDir('none'); console.log('dump', Math.round(performance.now()-t), d.size); t=performance.now();
const c = await PGlite.create('memory://', {loadDataDir: d});
console.log('create-from-dump', Math.round(performance.now()-t)); t=performance.now();
